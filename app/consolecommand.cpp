#include "commands.h"
#include "connectionoptions.h"
#include "console.h"

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
    ConnectionProfile profile = ConnectionOptions::read(parser);
    if (profile.cluster.isEmpty())
        profile.cluster.append({u"bootstrap.servers"_s, u"localhost:9092"_s});
    ConnectionOptions::remember(profile);
    Console console(profile);
    console.show();
    return QApplication::exec();
}
}
