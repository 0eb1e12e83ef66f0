// The delivery policy loader: any bytes load without crashing or throwing; every problem is a
// diagnostic with a message and a position inside the file; whatever was read is self-consistent.
#include "services/policy/policyloader.h"

#include <cstdio>
#include <cstdlib>

namespace {
[[noreturn]] void fail(const char *what)
{
    std::fprintf(stderr, "fuzz_policy: %s\n", what);
    std::abort();
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray yaml = QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size));
    const PolicyLoadResult result = loadPolicy(yaml, QStringLiteral("fuzz.yaml"));
    const int lines = int(yaml.count('\n')) + 2; // yaml-cpp may point just past the last line
    for (const PolicyDiagnostic &d : result.diagnostics) {
        if (d.message.isEmpty())
            fail("a diagnostic without a message");
        if (d.line < 0 || d.line > lines || d.column < 0)
            fail("a diagnostic outside the file");
    }
    if (result.ok() != result.errors().isEmpty())
        fail("ok() disagrees with errors()");
    if (result.messages().size() != result.diagnostics.size())
        fail("messages() lost a diagnostic");
    for (const TopicPolicy &t : result.policy.topics) {
        if (result.policy.topic(t.name) == nullptr)
            fail("a listed topic cannot be looked up");
        (void)parseDurationMs(t.retention);
    }
    for (const ConsumerPolicy &c : result.policy.consumers) {
        if (result.policy.consumer(c.name) == nullptr)
            fail("a listed consumer cannot be looked up");
    }
    (void)result.policy.dlqTopics();
    if (result.policy.consumerGroups().size() != result.policy.consumers.size())
        fail("consumerGroups() differs from the consumers");
    return 0;
}
