#include "commands.h"
#include "connectionoptions.h"
#include "consolehost.h"

#include "services/support/profilestore.h"
#include "services/support/secretstore.h"
#include "views/profiledialog.h"

#include <QApplication>

using namespace Qt::StringLiterals;

namespace Commands {
int console(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(u"Berth console"_s);
    parser.addHelpOption();
    parser.addVersionOption();
    ConnectionOptions::add(parser);
    parser.process(arguments);

    // Without connection options the console reopens the profile used last.
    StoredProfile start;
    const QString last = ProfileStore().lastUsed();
    if (const auto stored = ConnectionOptions::hasConnectionOptions(parser) || last.isEmpty()
                                ? std::optional<StoredProfile>()
                                : ProfileStore().load(last)) {
        start = *stored;
    } else {
        start.profile = ConnectionOptions::read(parser, &start.secretIds);
    }
    if (start.profile.cluster.isEmpty())
        start.profile.cluster.append({u"bootstrap.servers"_s, u"localhost:9092"_s});
    SecretStore secrets;
    const auto profile = ProfileDialog::resolveSecrets(start, &secrets, nullptr);
    if (!profile)
        return 1; // the operator cancelled the password prompt
    ConnectionOptions::remember(*profile);
    ConsoleHost host;
    host.open(*profile);
    return QApplication::exec();
}
}
