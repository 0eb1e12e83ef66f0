#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpus (tests/fuzz/corpus/<target>/). Each seed follows the byte layout
its target's FuzzInput reads (fuzzinput.h): one length byte (0xff: two more, little-endian) before a piece."""
import os
import re
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))


def piece(b):
    if isinstance(b, str):
        b = b.encode()
    if len(b) < 0xff:
        return bytes([len(b)]) + b
    return b"\xff" + struct.pack("<H", len(b)) + b


def write(target, name, data):
    d = os.path.join(HERE, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


# fuzz_dlqheaders: key mode, key, then (flags, name index | name, value) per header.
# The names fuzz_dlqheaders picks from (its kNames), in its order: a seed names a header by index.
with open(os.path.join(os.path.dirname(HERE), "fuzz_dlqheaders.cpp")) as f:
    source = f.read()
NAMES = re.findall(r'"([^"]+)"', source[source.index("kNames[] = {"):source.index("};", source.index("kNames[] = {"))])


def known(name, value, null=False):
    return bytes([0x07 if null else 0x01, NAMES.index(name)]) + (b"" if null else piece(value))


def headers(key, *hs):
    return b"\x00" + piece(key) + b"".join(hs)


write("fuzz_dlqheaders", "spring_dlt", headers(
    "ORD-1", known("kafka_dlt-original-topic", "orders"),
    known("kafka_dlt-original-partition", struct.pack(">i", 3)),
    known("kafka_dlt-original-offset", struct.pack(">q", 42)),
    known("kafka_dlt-exception-fqcn", "com.acme.OrderNotFound"),
    known("kafka_dlt-exception-message", "Order 7 not found"),
    known("kafka_dlt-original-consumer-group", "order-projection"),
    known("idempotency-key", "order-7")))
write("fuzz_dlqheaders", "spring_retry", headers(
    "k", known("kafka_original-topic", "payments"), known("kafka_original-partition", struct.pack(">i", 0)),
    known("kafka_original-offset", struct.pack(">q", 9)), known("retry_topic-attempts", b"\x03"),
    known("kafka_exception-fqcn", "java.io.IOException")))
write("fuzz_dlqheaders", "scs", headers(
    "k", known("x-original-topic", "notifications"), known("x-original-partition", struct.pack(">i", 1)),
    known("x-original-offset", struct.pack(">q", 5)), known("x-exception-message", "SMTP 451")))
write("fuzz_dlqheaders", "connect", headers(
    "", known("__connect.errors.topic", "warehouse"), known("__connect.errors.partition", "2"),
    known("__connect.errors.offset", "1234"), known("__connect.errors.connector.name", "sink"),
    known("__connect.errors.task.id", "0"), known("__connect.errors.exception.class.name", "DataException")))
write("fuzz_dlqheaders", "streams", headers(
    "k", known("__streams.errors.topic", "clicks"), known("__streams.errors.partition", "0"),
    known("__streams.errors.offset", "77"), known("__streams.errors.exception", "SerializationException")))
write("fuzz_dlqheaders", "berth", headers(
    "k", known("dlq-original-topic", "orders"), known("dlq-original-partition", "1"),
    known("dlq-original-offset", "8"), known("dlq-attempts", "5"), known("dlq-reason", "declined"),
    known("dlq-first-failure-at", "2024-03-01T10:00:00Z"), known("dlq-last-failure-at", "1709287200000")))
write("fuzz_dlqheaders", "odd", b"\x01" + known("kafka_dlt-original-partition", b"\x01\x02\x03")
      + known("kafka_dlt-original-offset", "12") + known("kafka_dlt-original-topic", b"\xff\xfe")
      + known("kafka_dlt-original-topic", "again") + known("dlq-attempts", "", null=True)
      + b"\x00" + piece("x-custom") + piece(b"\x00\x01"))

# fuzz_payloadpreview: limit (u16), key, payload.
def preview(name, payload, limit=4000, key="k"):
    write("fuzz_payloadpreview", name, struct.pack("<H", limit) + piece(key) + payload)


preview("json", b'{"order": 7, "items": [1, 2, {"sku": "A\\"B"}], "empty": {}, "e": []}')
preview("nested", b"[" * 200 + b"]" * 200)
preview("invalid_json", b'{"a": [1, 2,, "b": }')
preview("binary", bytes(range(256)), limit=100)
preview("utf8", "RTL \u202e evil \u202c, ANSI \x1b[31mred\x1b[0m, <b>html</b> \u00e9\u6f22\U0001f642".encode())
preview("cut_utf8", "\u00e9\u00e9\u00e9\u00e9".encode(), limit=3, key="it's a 'key'")
preview("empty", b"", key="")

# fuzz_policy: real policy files.
for src, name in ((os.path.join(ROOT, "resources/policy/demo-policy.yaml"), "demo"),
                  (os.path.join(ROOT, "tests/fixtures/seed000-policy.yaml"), "seed000")):
    if os.path.exists(src):
        with open(src, "rb") as f:
            write("fuzz_policy", name, f.read())
write("fuzz_policy", "small", b"""deliverySemantics:
  topics:
    orders: { defaultGuarantee: at-least-once, key: orderId, retention: 7d, replayAllowed: true, partitions: 6 }
  consumers:
    order-projection:
      topics: [orders]
      idempotency: { strategy: processed_message, duplicateHandling: skip }
      retry: { maxAttempts: 5, backoff: exponential-jitter }
      dlq: { enabled: true, topic: orders-dlt, owner: team-orders }
      lagSlo: { maxLagSeconds: 300 }
      unknownKey: 1
""")
write("fuzz_policy", "broken", b"deliverySemantics:\n  topics: [\n  - &a {x: *a}\n\t: :\n")

# fuzz_inboxmapping: name, 17 text fields, stuck-after (u16), then (word, state) pairs.
def mapping(name, fields, stuck, statuses):
    data = piece(name) + b"".join(piece(f) for f in fields) + struct.pack("<H", stuck)
    for word, state in statuses:
        data += piece(word) + bytes([state])
    write("fuzz_inboxmapping", name, data)


mapping("seed000", ["", "processed_message", "consumer_name", "message_id", "status", "first_seen_at", "updated_at",
                    "", "error_code", "", "", "", "", "", "", "", "SKIPPED"], 300,
        [("IN_PROGRESS", 0), ("COMPLETED", 1), ("FAILED_RETRYABLE", 2), ("FAILED_TERMINAL", 3), ("PARKED", 4),
         ("SKIPPED", 5)])
mapping("seed001", ["", "processed_events", "consumer_group", "idempotency_key", "status", "received_at",
                    "updated_at", "attempt_count", "last_error", "topic", "", "", "outbox", "status", "created_at",
                    "pending", ""], 300,
        [("RECEIVED", 0), ("PROCESSING", 0), ("COMPLETED", 1), ("FAILED", 2)])
mapping("hostile", ["s'; DROP TABLE x; --", 't"x', "\\", "%_", 'a""b', "\u00fcn\u00efc\u00f8d\u00e9", "u", "x" * 64,
                    "", "", "", "", "", "", "", "", ""], 1, [("'; --", 0)])

# fuzz_filter: start text, filter text, mode, sort column, then records (timestamp, flags, key, headers).
def records(*rs):
    out = b""
    for ts, flags, key, hs in rs:
        out += bytes([ts, flags]) + piece(key)
        for index, value in hs:
            out += bytes([index]) + piece(value)
    return out


REC = records((3, 0x22, "ORD-1", [(0, "Order 1 not found"), (1, "com.acme.OrderNotFound")]),
              (1, 0x14, "ORD-2", [(2, "order-2"), (0, "50% off_card")]),
              (2, 0x06, b"\x00\xff", [(1, "com.acme.PaymentDeclined"), (0, "Stra\u00dfe \u00c9t\u00e9"), (3, "4")]))
write("fuzz_filter", "text", piece("end-100") + piece("order") + b"\x00\x07" + REC)
write("fuzz_filter", "wildcards", piece("offset:5") + piece("%_") + b"\x40\x08" + REC)
write("fuzz_filter", "unicode", piece("time:2024-03-01T10:00:00Z") + piece("\u00e9T\u00c9") + b"\x20\x00" + REC)
write("fuzz_filter", "group", piece("beginning") + piece("") + b"\x81\x02" + REC)
# Found by fuzzing: a time past four-digit years once read back as "time:".
write("fuzz_filter", "far_time", piece("time:202400000000000000") + piece("") + b"\x00\x00")


# fuzz_wireheaders: one Kafka v2 record (Length, attributes, timestamp and offset deltas, key, value, headers).
def varint(n):
    u = (n << 1) ^ (n >> 63)
    out = b""
    while u >= 0x80:
        out += bytes([(u & 0x7f) | 0x80])
        u >>= 7
    return out + bytes([u])


def field(b):
    return varint(-1) if b is None else varint(len(b)) + b


def record(key, value, hs, attributes=0, ts=0, offset=0):
    body = bytes([attributes]) + varint(ts) + varint(offset) + field(key) + field(value) + varint(len(hs))
    for name, v in hs:
        body += varint(len(name)) + name + field(v)
    return varint(len(body)) + body


write("fuzz_wireheaders", "spring_dlt", record(b"ORD-1", b'{"orderId":"ORD-1"}', [
    (b"kafka_dlt-original-topic", b"orders"), (b"kafka_dlt-original-partition", b"\x00\x00\x00\x03"),
    (b"kafka_dlt-exception-fqcn", b"com.acme.OrderNotFound"), (b"kafka_dlt-exception-stacktrace", b"at x\n" * 40)]))
write("fuzz_wireheaders", "null_key_empty_value", record(None, b"", [(b"a", None), (b"", b"")], ts=1 << 40))
write("fuzz_wireheaders", "tombstone", record(b"k", None, [(b"n\x00ul", b"1")], offset=300))
write("fuzz_wireheaders", "heavy_headers", record(b"k", b"v", [(b"big", b"\xfe" * 3000)]))
write("fuzz_wireheaders", "attributes", record(b"k", b"v", [(b"a", b"1")], attributes=0x80))


# Schema payloads (Avro and Confluent's index list write zig-zag varints, as Kafka's record format does).
# fuzz_avro: schema choice (0-4 fixed, else the fuzzed schema), schema piece, body.
zz = varint


def avro_str(s):
    return zz(len(s)) + s


payment = (avro_str(b"6f1c2a52-8f4e-4b59-9d3a-0c5e1f2a3b4c") + avro_str(b"\xfe\x1d") + b"\x00\x00\x30\x39"
           + zz(1709214300123) + zz(19782) + zz(49500123) + zz(1)
           + zz(1) + zz(2) + struct.pack("<d", 9.99) + struct.pack("<f", 0.5) + zz(0)
           + zz(2) + avro_str(b"a") + zz(1) + avro_str(b"x") + avro_str(b"b") + zz(3) + b"\x01" + zz(0))
write("fuzz_avro", "payment", b"\x00" + piece(b"") + payment)
write("fuzz_avro", "linked_list", b"\x01" + piece(b"") + zz(1) + zz(1) + zz(2) + zz(0) + zz(0) + zz(0))
write("fuzz_avro", "nulls", b"\x02" + piece(b"") + zz(-3) + zz(0) + zz(0))
write("fuzz_avro", "own_schema", b"\xff" + piece(b'{"type":"record","name":"A","fields":[{"name":"x","type":["null","A"]}]}')
      + zz(1) + zz(0))
write("fuzz_avro", "own_logical", b"\xfe" + piece(b'{"type":"fixed","name":"D","size":16,"logicalType":"decimal","scale":4}')
      + b"\x80" + b"\x00" * 15)

# fuzz_protobuf: schema choice (< 200 the fixed one), schema piece, message choice, body.
def pb_field(number, wire, payload):
    return zz_unsigned((number << 3) | wire) + payload


def zz_unsigned(n):
    return varint(n >> 1 if n % 2 == 0 else -((n + 1) >> 1))  # Protobuf's plain varint: zig-zag undone


def pb_len(number, payload):
    return pb_field(number, 2, zz_unsigned(len(payload)) + payload)


node = (pb_len(1, pb_len(1, b"") + pb_field(5, 0, b"\x01")) + pb_len(3, pb_field(1, 0, b"\x07") + pb_len(2, pb_field(1, 0, b"\x03")))
        + pb_len(7, pb_field(1, 0, zz_unsigned(1709214300)) + pb_field(2, 0, zz_unsigned(123000000)))
        + pb_len(9, b"text") + pb_field(99, 0, b"\x05"))
write("fuzz_protobuf", "node", b"\x00" + piece(b"") + b"\x00" + node)
write("fuzz_protobuf", "leaf", b"\x00" + piece(b"") + b"\x01" + pb_field(1, 0, b"\x03") + pb_field(2, 1, b"\xff" * 8))
write("fuzz_protobuf", "own_schema", b"\xff" + piece(b'syntax = "proto3"; message M { map<string, M> m = 1; sint32 s = 2; }')
      + b"\x00" + pb_len(1, pb_len(1, b"k") + pb_len(2, pb_field(2, 0, b"\x03"))))

# fuzz_wireformat: mode byte (bit 0: topic "local"; 0xff: null value), then the value.
write("fuzz_wireformat", "avro", b"\x00" + b"\x00\x00\x00\x00\x01" + zz(1) + avro_str(b"hi") + zz(1) + zz(5) + zz(0))
write("fuzz_wireformat", "protobuf_nested", b"\x00" + b"\x00\x00\x00\x00\x02" + zz(2) + zz(0) + zz(0) + pb_field(1, 0, b"\x01"))
write("fuzz_wireformat", "protobuf_first", b"\x00" + b"\x00\x00\x00\x00\x02\x00" + pb_len(1, b"x"))
write("fuzz_wireformat", "json_schema", b"\x00" + b"\x00\x00\x00\x00\x03" + b'{"a":[1,2]}')
write("fuzz_wireformat", "unknown_id", b"\x00" + b"\x00\x00\x00\x00\x04" + b"zz")
write("fuzz_wireformat", "local", b"\x01" + zz(1) + avro_str(b"k") + zz(4) + zz(0))
write("fuzz_wireformat", "wrong_magic", b"\x00" + b"\x01\x00\x00\x00\x01\xff\xfe")
