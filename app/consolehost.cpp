#include "consolehost.h"

#include "services/support/profilestore.h"
#include "views/mainwindow.h"

#include <QTimer>

ConsoleHost::ConsoleHost(QObject *parent)
    : QObject(parent)
{
}

ConsoleHost::~ConsoleHost() = default;

Console *ConsoleHost::open(const ConnectionProfile &profile)
{
    auto next = std::make_unique<Console>(profile);
    // Queued: the old console emits this from inside its own dialog, which must unwind before it goes.
    connect(next.get(), &Console::profileChosen, this,
            [this](const ConnectionProfile &chosen) { open(chosen); }, Qt::QueuedConnection);
    next->show();
    if (m_console) {
        m_console->window()->close();
        m_console.reset();
    }
    m_console = std::move(next);
    Q_EMIT consoleReplaced(m_console.get());
    return m_console.get();
}
