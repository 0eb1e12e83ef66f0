#pragma once

#include "console.h"

#include <QObject>

#include <memory>

// Holds the one live console and replaces it when the operator connects to another profile: the new
// console opens first (so the application does not quit on its last window closing), then the old one
// closes, which saves its layout under its own profile.
class ConsoleHost final : public QObject {
    Q_OBJECT
public:
    explicit ConsoleHost(QObject *parent = nullptr);
    ~ConsoleHost() override;

    Console *open(const ConnectionProfile &profile);
    Console *console() const { return m_console.get(); }

Q_SIGNALS:
    void consoleReplaced(Console *console);

private:
    std::unique_ptr<Console> m_console;
};
