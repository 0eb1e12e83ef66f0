#include "commandschemas.h"

#include "services/payload/schemacatalog.h"
#include "services/payload/schemaregistryclient.h"

using namespace Qt::StringLiterals;

void CommandSchemas::addOptions(QCommandLineParser &parser)
{
    parser.addOption(
        {u"schema-registry"_s,
         u"The Schema Registry that holds the schemas of Confluent-framed payloads (default: the "
         u"profile's)."_s,
         u"url"_s});
    parser.addOption({u"schema"_s,
                      u"A local schema file (.avsc, .proto, descriptor set) for a topic: FILE=TOPIC "
                      u"or FILE#package.Message=TOPIC (repeatable)."_s,
                      u"file=topic"_s});
}

CommandSchemas::CommandSchemas()
    : m_catalog(std::make_shared<SchemaCatalog>())
{
}

CommandSchemas::~CommandSchemas()
{
    if (m_registryClient) {
        QMetaObject::invokeMethod(m_registryClient.release(), &QObject::deleteLater);
        m_registryThread.quit();
        m_registryThread.wait();
    }
}

void CommandSchemas::setRegistry(const QCommandLineParser &parser,
                                 const SchemaRegistryConfig &profileRegistry, int timeoutMs)
{
    m_registry = profileRegistry;
    if (parser.isSet(u"schema-registry"_s))
        m_registry.url = parser.value(u"schema-registry"_s);
    m_registry.timeoutMs = timeoutMs;
}

bool CommandSchemas::open(const QCommandLineParser &parser, const QStringList &profileFiles, QString *error)
{
    for (const QString &spec : profileFiles + parser.values(u"schema"_s)) {
        if (!m_catalog->mapFile(spec, error))
            return false;
    }
    if (m_registry.isSet() && !m_registryClient) {
        m_registryClient = std::make_unique<SchemaRegistryClient>(m_registry, m_catalog.get());
        m_registryClient->moveToThread(&m_registryThread);
        m_registryThread.start();
    }
    return true;
}
