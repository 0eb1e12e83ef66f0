<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>AccountingModel</name>
    <message>
        <source>Processed</source>
        <translation>Verarbeitet</translation>
    </message>
    <message>
        <source>Duplicate</source>
        <translation>Duplikat</translation>
    </message>
    <message>
        <source>In flight</source>
        <translation>In Arbeit</translation>
    </message>
    <message>
        <source>Dead-lettered</source>
        <translation>In der DLQ</translation>
    </message>
    <message>
        <source>Parked</source>
        <translation>Geparkt</translation>
    </message>
    <message>
        <source>Skipped</source>
        <translation>Übersprungen</translation>
    </message>
    <message>
        <source>Not consumed</source>
        <translation>Nicht konsumiert</translation>
    </message>
    <message>
        <source>Aborted</source>
        <translation>Abgebrochen</translation>
    </message>
    <message>
        <source>Unaccounted</source>
        <translation>Nicht verbucht</translation>
    </message>
    <message>
        <source>Class</source>
        <translation>Klasse</translation>
    </message>
    <message>
        <source>Partition</source>
        <translation>Partition</translation>
    </message>
    <message>
        <source>Offset</source>
        <translation>Offset</translation>
    </message>
    <message>
        <source>Time (local)</source>
        <translation>Zeit (lokal)</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>Idempotency key</source>
        <translation>Idempotenzschlüssel</translation>
    </message>
    <message>
        <source>Sequence</source>
        <translation>Sequenz</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>Hinweise</translation>
    </message>
</context>
<context>
    <name>AccountingService</name>
    <message>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
</context>
<context>
    <name>AccountingView</name>
    <message>
        <source>&amp;Account</source>
        <translation>&amp;Verbuchen</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>CSV exportieren…</translation>
    </message>
    <message>
        <source>Export JSON lines…</source>
        <translation>JSON-Zeilen exportieren…</translation>
    </message>
    <message>
        <source>Request &amp;replay…</source>
        <translation>&amp;Replay beantragen…</translation>
    </message>
    <message>
        <source>topic</source>
        <translation>Topic</translation>
    </message>
    <message>
        <source>beginning, end, end-N, offset:N or time:&lt;ISO-8601 or epoch ms&gt;</source>
        <translation>beginning, end, end-N, offset:N oder time:&lt;ISO-8601 oder Epoch-ms&gt;</translation>
    </message>
    <message>
        <source>end (when the run starts)</source>
        <translation>Ende (beim Start des Laufs)</translation>
    </message>
    <message>
        <source>Account for every record of the window (Ctrl+Return)</source>
        <translation>Jeden Datensatz des Fensters verbuchen (Strg+Eingabe)</translation>
    </message>
    <message>
        <source>Consumer group:</source>
        <translation>Consumer-Gruppe:</translation>
    </message>
    <message>
        <source>Topic:</source>
        <translation>Topic:</translation>
    </message>
    <message>
        <source>From:</source>
        <translation>Von:</translation>
    </message>
    <message>
        <source>To:</source>
        <translation>Bis:</translation>
    </message>
    <message>
        <source>Class</source>
        <translation>Klasse</translation>
    </message>
    <message>
        <source>Records</source>
        <translation>Records</translation>
    </message>
    <message>
        <source>Choose classes to list their records below</source>
        <translation>Klassen wählen, um ihre Datensätze unten aufzulisten</translation>
    </message>
    <message>
        <source>Records per minute</source>
        <translation>Datensätze pro Minute</translation>
    </message>
    <message>
        <source>Request a replay of the selected unaccounted or dead-lettered records (four-eyes)</source>
        <translation>Ein Replay der gewählten nicht verbuchten oder in die DLQ gegangenen Datensätze beantragen (Vier-Augen)</translation>
    </message>
    <message>
        <source>Name a consumer group and a topic.</source>
        <translation>Eine Consumer-Gruppe und ein Topic angeben.</translation>
    </message>
    <message>
        <source>Accounting %1 on %2…</source>
        <translation>Verbuche %1 auf %2…</translation>
    </message>
    <message>
        <source>%1: %2 of %3 records</source>
        <translation>%1: %2 von %3 Datensätzen</translation>
    </message>
    <message>
        <source>Cancelled; nothing was decided.</source>
        <translation>Abgebrochen; nichts wurde entschieden.</translation>
    </message>
    <message>
        <source>The accounting failed: %1</source>
        <translation>Die Verbuchung ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>%1 records of %2 for %3; %4 with notes.</source>
        <translation>%1 Datensätze von %2 für %3; %4 mit Hinweisen.</translation>
    </message>
    <message>
        <source>Key: %1. Dead letters from: %2. Inbox: %3.</source>
        <translation>Schlüssel: %1. Dead Letters aus: %2. Inbox: %3.</translation>
    </message>
    <message>
        <source>no DLQ topic</source>
        <translation>kein DLQ-Topic</translation>
    </message>
    <message>
        <source>checked</source>
        <translation>geprüft</translation>
    </message>
    <message>
        <source>none (processed records are unverified)</source>
        <translation>keine (verarbeitete Datensätze sind ungeprüft)</translation>
    </message>
    <message>
        <source>Order: %1 gaps, %2 out of order, %3 repeated, %4 DLQ-and-continue breaks.</source>
        <translation>Reihenfolge: %1 Lücken, %2 außer der Reihe, %3 wiederholt, %4 DLQ-und-weiter-Brüche.</translation>
    </message>
    <message>
        <source>Partition %1 is caught up: only transaction markers follow its last record.</source>
        <translation>Partition %1 ist aufgeholt: auf ihren letzten Datensatz folgen nur Transaktionsmarker.</translation>
    </message>
    <message>
        <source>%1 unaccounted record(s): possible loss.</source>
        <translation>%1 nicht verbuchte(r) Datensatz/Datensätze: möglicher Verlust.</translation>
    </message>
    <message>
        <source>Every record is accounted for.</source>
        <translation>Jeder Datensatz ist verbucht.</translation>
    </message>
    <message>
        <source>Exported %1 records to %2.</source>
        <translation>%1 Datensätze nach %2 exportiert.</translation>
    </message>
    <message>
        <source>The export to %1 failed: %2</source>
        <translation>Der Export nach %1 ist fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>Export records</source>
        <translation>Datensätze exportieren</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>JSON lines (*.jsonl)</source>
        <translation>JSON-Zeilen (*.jsonl)</translation>
    </message>
    <message>
        <source>Record</source>
        <translation>Record</translation>
    </message>
    <message>
        <source>Dead letter</source>
        <translation>Dead Letter</translation>
    </message>
    <message>
        <source>Topic</source>
        <translation>Topic</translation>
    </message>
    <message>
        <source>Gaps</source>
        <translation>Lücken</translation>
    </message>
    <message>
        <source>Out of order</source>
        <translation>Außer der Reihe</translation>
    </message>
    <message>
        <source>Repeated</source>
        <translation>Wiederholt</translation>
    </message>
    <message>
        <source>Example keys</source>
        <translation>Beispielschlüssel</translation>
    </message>
    <message>
        <source>No topic of the delivery policy names a sequence field: nothing to follow.</source>
        <translation>Kein Topic der Zustellungsrichtlinie nennt ein Sequenzfeld: nichts zu verfolgen.</translation>
    </message>
    <message>
        <source>Per minute</source>
        <translation>Pro Minute</translation>
    </message>
    <message>
        <source>Live order tail</source>
        <translation>Live-Reihenfolge</translation>
    </message>
    <message>
        <source>Select a record to inspect it.</source>
        <translation>Einen Record auswählen, um ihn anzusehen.</translation>
    </message>
    <message>
        <source>Select a dead-lettered record to see its dead letter.</source>
        <translation>Einen Record in der DLQ auswählen, um seinen Dead Letter zu sehen.</translation>
    </message>
    <message>
        <source>Accounted as</source>
        <translation>Bilanziert als</translation>
    </message>
    <message>
        <source>Sequence</source>
        <translation>Sequenz</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>Hinweise</translation>
    </message>
    <message>
        <source>%1 [%2] @ %3</source>
        <translation>%1 [%2] @ %3</translation>
    </message>
    <message>
        <source>Dead letter of</source>
        <translation>Dead Letter von</translation>
    </message>
    <message>
        <source>No dead letter of this record was read from the DLQ topics.</source>
        <translation>Aus den DLQ-Topics wurde kein Dead Letter dieses Records gelesen.</translation>
    </message>
    <message>
        <source>The live order tail cannot read: %1</source>
        <translation>Die Live-Reihenfolge kann nicht lesen: %1</translation>
    </message>
    <message numerus="yes">
        <source>Following %n topic(s) from their end, per record key (%1 keys held; the oldest are forgotten beyond the bound). %2 order break(s) in the last %3 min.</source>
        <translation>
            <numerusform>Folgt %n Topic ab seinem Ende, je Record-Schlüssel (%1 Schlüssel gehalten; jenseits der Grenze werden die ältesten vergessen). %2 Reihenfolgebrüche in den letzten %3 min.</numerusform>
            <numerusform>Folgt %n Topics ab ihrem Ende, je Record-Schlüssel (%1 Schlüssel gehalten; jenseits der Grenze werden die ältesten vergessen). %2 Reihenfolgebrüche in den letzten %3 min.</numerusform>
        </translation>
    </message>
    <message>
        <source>Live order tail (%1)</source>
        <translation>Live-Reihenfolge (%1)</translation>
    </message>
    <message>
        <source>Record time, local (%1)</source>
        <translation>Datensatzzeit, lokal (%1)</translation>
    </message>
    <message>
        <source>DLQ and continue</source>
        <translation>DLQ und weiter</translation>
    </message>
</context>
<context>
    <name>ActionConfirmation</name>
    <message numerus="yes">
        <source>%1: %n item(s).</source>
        <translation>
            <numerusform>%1: %n Eintrag.</numerusform>
            <numerusform>%1: %n Einträge.</numerusform>
        </translation>
    </message>
    <message>
        <source>Keys that repeat: %1</source>
        <translation>Wiederholte Schlüssel: %1</translation>
    </message>
    <message>
        <source>This cannot be undone. Continue?</source>
        <translation>Das lässt sich nicht rückgängig machen. Fortfahren?</translation>
    </message>
</context>
<context>
    <name>ActionSummary</name>
    <message>
        <source>Execute request %1</source>
        <translation>Antrag %1 ausführen</translation>
    </message>
    <message>
        <source>%1 request %2 by %3: %4</source>
        <translation>%1-Antrag %2 von %3: %4</translation>
    </message>
    <message>
        <source>each record&apos;s original topic</source>
        <translation>das ursprüngliche Topic jedes Datensatzes</translation>
    </message>
    <message>
        <source>Produces to %1</source>
        <translation>Schreibt nach %1</translation>
    </message>
    <message>
        <source>Changes inbox rows</source>
        <translation>Ändert Inbox-Zeilen</translation>
    </message>
    <message>
        <source>Changes inbox rows of %1</source>
        <translation>Ändert Inbox-Zeilen von %1</translation>
    </message>
    <message numerus="yes">
        <source>%n selected copy(ies) of records already in the request were filed once.</source>
        <translation>
            <numerusform>%n ausgewählte Kopie eines Datensatzes, der schon im Antrag ist, wurde einmal aufgenommen.</numerusform>
            <numerusform>%n ausgewählte Kopien von Datensätzen, die schon im Antrag sind, wurden einmal aufgenommen.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n item(s) are different records sharing an idempotency key: all are sent, the consumer&apos;s inbox decides which take effect.</source>
        <translation>
            <numerusform>%n Eintrag ist ein anderer Datensatz mit demselben Idempotenzschlüssel: alle werden gesendet, die Inbox des Consumers entscheidet, welche wirken.</numerusform>
            <numerusform>%n Einträge sind verschiedene Datensätze mit demselben Idempotenzschlüssel: alle werden gesendet, die Inbox des Consumers entscheidet, welche wirken.</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2 → %3</source>
        <translation>%1: %2 → %3</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keiner</translation>
    </message>
    <message>
        <source>Moves the committed offsets of group %1 on %2 (partition %3)</source>
        <translation>Verschiebt die committeten Offsets der Gruppe %1 auf %2 (Partition %3)</translation>
    </message>
    <message numerus="yes">
        <source>%n record(s) will be processed again</source>
        <translation>
            <numerusform>%n Datensatz wird erneut verarbeitet</numerusform>
            <numerusform>%n Datensätze werden erneut verarbeitet</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n record(s) will be skipped (never processed by the group)</source>
        <translation>
            <numerusform>%n Datensatz wird übersprungen (nie von der Gruppe verarbeitet)</numerusform>
            <numerusform>%n Datensätze werden übersprungen (nie von der Gruppe verarbeitet)</numerusform>
        </translation>
    </message>
    <message>
        <source>Refused, nothing moved, while the group has an active member: stop its consumers first.</source>
        <translation>Verweigert, nichts verschoben, solange die Gruppe ein aktives Mitglied hat: zuerst ihre Consumer stoppen.</translation>
    </message>
    <message numerus="yes">
        <source>Releases %n parked or failed inbox row(s) of %1 (to the mapping&apos;s releaseTo) right before their records are produced.</source>
        <translation>
            <numerusform>Gibt %n geparkte oder fehlgeschlagene Inbox-Zeile von %1 (auf das releaseTo des Mappings) frei, direkt bevor ihr Record produziert wird.</numerusform>
            <numerusform>Gibt %n geparkte oder fehlgeschlagene Inbox-Zeilen von %1 (auf das releaseTo des Mappings) frei, jeweils direkt bevor ihr Record produziert wird.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Releases %n stuck in-progress inbox row(s) of %1 for retry right before their records are produced, each only while it is still idle.</source>
        <translation>
            <numerusform>Gibt %n hängende Inbox-Zeile von %1 (in Bearbeitung) für einen neuen Versuch frei, direkt bevor ihr Record produziert wird, nur solange sie noch ruht.</numerusform>
            <numerusform>Gibt %n hängende Inbox-Zeilen von %1 (in Bearbeitung) für einen neuen Versuch frei, jeweils direkt bevor ihr Record produziert wird, nur solange sie noch ruht.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>AlertModel</name>
    <message>
        <source>active, acknowledged</source>
        <translation>aktiv, bestätigt</translation>
    </message>
    <message>
        <source>ACTIVE</source>
        <translation>AKTIV</translation>
    </message>
    <message>
        <source>cleared</source>
        <translation>aufgehoben</translation>
    </message>
    <message>
        <source>Fired</source>
        <translation>Ausgelöst</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>Regel</translation>
    </message>
    <message>
        <source>Subject</source>
        <translation>Betrifft</translation>
    </message>
    <message>
        <source>Cleared</source>
        <translation>Aufgehoben</translation>
    </message>
    <message>
        <source>snoozed until %1</source>
        <translation>stummgeschaltet bis %1</translation>
    </message>
    <message>
        <source>no owner stated</source>
        <translation>kein Verantwortlicher angegeben</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>Note: %1</source>
        <translation>Hinweis: %1</translation>
    </message>
    <message>
        <source>Snoozed until %1: %2</source>
        <translation>Stummgeschaltet bis %1: %2</translation>
    </message>
    <message>
        <source>Double-click to open the evidence.</source>
        <translation>Doppelklick öffnet den Befund.</translation>
    </message>
    <message>
        <source>Owner</source>
        <translation>Verantwortlich</translation>
    </message>
    <message>
        <source>Evidence</source>
        <translation>Befund</translation>
    </message>
</context>
<context>
    <name>AlertRules</name>
    <message>
        <source>no owner stated</source>
        <translation>kein Verantwortlicher angegeben</translation>
    </message>
    <message>
        <source>rollback the last deploy</source>
        <translation>letztes Deployment zurückrollen</translation>
    </message>
    <message>
        <source>Time lag %1 s is above 10 × the SLO (S = %2 s, page above %3 s); p95 over 15 min %4 against S; %5 messages behind.</source>
        <translation>Zeitrückstand %1 s liegt über 10 × SLO (S = %2 s, Alarm über %3 s); p95 über 15 min %4 gegenüber S; %5 Nachrichten Rückstand.</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>S = %1 s: page above %2 s for 2 min, clear below %3 s for 1 min; a second page within 60 min: rollback the last deploy</source>
        <translation>S = %1 s: Alarm über %2 s für 2 min, aufgehoben unter %3 s für 1 min; zweiter Alarm binnen 60 min: letztes Deployment zurückrollen</translation>
    </message>
    <message>
        <source>default</source>
        <translation>Voreinstellung</translation>
    </message>
    <message>
        <source>%1: %2 (%3 messages behind).</source>
        <translation>%1: %2 (%3 Nachrichten Rückstand).</translation>
    </message>
    <message>
        <source>No records appended to %1 for a while, though it had traffic before.</source>
        <translation>Seit einer Weile keine Records mehr an %1 angehängt, obwohl dort vorher Verkehr war.</translation>
    </message>
    <message numerus="yes">
        <source>%n dead letter(s) on %1 in the last %2 min; the DLQ is critical: any arrival alerts. Owner: %3.</source>
        <translation>
            <numerusform>%n Dead Letter auf %1 in den letzten %2 min; die DLQ ist kritisch: jeder Eingang alarmiert. Verantwortlich: %3.</numerusform>
            <numerusform>%n Dead Letters auf %1 in den letzten %2 min; die DLQ ist kritisch: jeder Eingang alarmiert. Verantwortlich: %3.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n dead letter(s) on %1 in the last %2 min (alert at %3). Owner: %4.</source>
        <translation>
            <numerusform>%n Dead Letter auf %1 in den letzten %2 min (Alarm bei %3). Verantwortlich: %4.</numerusform>
            <numerusform>%n Dead Letters auf %1 in den letzten %2 min (Alarm bei %3). Verantwortlich: %4.</numerusform>
        </translation>
    </message>
    <message>
        <source>any arrival</source>
        <translation>jeder Eingang</translation>
    </message>
    <message>
        <source>%1 within %2 min</source>
        <translation>%1 innerhalb von %2 min</translation>
    </message>
    <message>
        <source>a dead letter on %1 after %2 attempts (limit %3)</source>
        <translation>ein Dead Letter auf %1 nach %2 Versuchen (Grenze %3)</translation>
    </message>
    <message numerus="yes">
        <source>%n more inbox row(s) in %1 reached %2 attempts</source>
        <translation>
            <numerusform>%n weitere Inbox-Zeile in %1 erreichte %2 Versuche</numerusform>
            <numerusform>%n weitere Inbox-Zeilen in %1 erreichten %2 Versuche</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n message(s) exhausted their retries in the last 15 min: %1.</source>
        <translation>
            <numerusform>%n Nachricht hat in den letzten 15 min ihre Wiederholungen erschöpft: %1.</numerusform>
            <numerusform>%n Nachrichten haben in den letzten 15 min ihre Wiederholungen erschöpft: %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n dead letter(s) on %1 failed to deserialize in the last 15 min (%2).</source>
        <translation>
            <numerusform>%n Dead Letter auf %1 in den letzten 15 min nicht deserialisierbar (%2).</numerusform>
            <numerusform>%n Dead Letters auf %1 in den letzten 15 min nicht deserialisierbar (%2).</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 % of the records arriving on %2 repeat an idempotency key (%3 in the last minute; alert above %4 %).</source>
        <translation>%1 % der auf %2 eingehenden Records wiederholen einen Idempotenzschlüssel (%3 in der letzten Minute; Alarm über %4 %).</translation>
    </message>
    <message numerus="yes">
        <source>%n row(s) in progress for longer than %1 s (the mapping&apos;s stuck after); oldest %2 (%3) for %4 s.</source>
        <translation>
            <numerusform>%n Zeile länger als %1 s in Bearbeitung („hängt nach“ der Zuordnung); älteste %2 (%3) seit %4 s.</numerusform>
            <numerusform>%n Zeilen länger als %1 s in Bearbeitung („hängt nach“ der Zuordnung); älteste %2 (%3) seit %4 s.</numerusform>
        </translation>
    </message>
    <message>
        <source>Outbox %1 backlog growing: %2 pending, oldest %3 s.</source>
        <translation>Rückstau im Outbox %1 wächst: %2 ausstehend, ältester %3 s.</translation>
    </message>
    <message>
        <source>a dead letter or inbox row at %1 attempts</source>
        <translation>ein Dead Letter oder eine Inbox-Zeile mit %1 Versuchen</translation>
    </message>
    <message>
        <source>any dead letter whose exception class is a (de)serialization or schema error, within 15 min</source>
        <translation>jeder Dead Letter mit einer (De-)Serialisierungs- oder Schema-Ausnahme, binnen 15 min</translation>
    </message>
    <message>
        <source>above %1 % of a minute&apos;s records for 2 min; clear below %2 %</source>
        <translation>über %1 % der Records einer Minute für 2 min; aufgehoben unter %2 %</translation>
    </message>
    <message>
        <source>any row in progress longer than the mapping&apos;s stuck after</source>
        <translation>jede Zeile, die länger als das „hängt nach“ der Zuordnung in Bearbeitung ist</translation>
    </message>
    <message>
        <source>pending rows growing between readings for 1 min</source>
        <translation>ausstehende Zeilen wachsen zwischen Messungen für 1 min</translation>
    </message>
    <message>
        <source>status STOP or STALL with lag for 1 min</source>
        <translation>Status STOP oder STALL mit Rückstand für 1 min</translation>
    </message>
    <message>
        <source>a consumed partition with traffic before and none for the sampler&apos;s idle window</source>
        <translation>eine konsumierte Partition mit früherem Verkehr und keinem im Ruhefenster des Samplers</translation>
    </message>
    <message numerus="yes">
        <source>%n record(s) committed past with no inbox row and no dead letter (possible loss); keys: %1.</source>
        <translation>
            <numerusform>%n Datensatz hinter dem Commit ohne Inbox-Zeile und ohne Dead Letter (möglicher Verlust); Schlüssel: %1.</numerusform>
            <numerusform>%n Datensätze hinter dem Commit ohne Inbox-Zeile und ohne Dead Letter (möglicher Verlust); Schlüssel: %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n order break(s): %1 gap(s), %2 out of order, %3 repeated, %4 dead-lettered while later records of the key went through; keys: %5.</source>
        <translation>
            <numerusform>%n Reihenfolgebruch: %1 Lücke(n), %2 außer der Reihe, %3 wiederholt, %4 in die DLQ gegangen, während spätere Datensätze des Schlüssels durchliefen; Schlüssel: %5.</numerusform>
            <numerusform>%n Reihenfolgebrüche: %1 Lücke(n), %2 außer der Reihe, %3 wiederholt, %4 in die DLQ gegangen, während spätere Datensätze des Schlüssels durchliefen; Schlüssel: %5.</numerusform>
        </translation>
    </message>
    <message>
        <source>any unaccounted record in a delivery accounting; clears when the next finds none</source>
        <translation>jeder nicht verbuchte Datensatz in einer Zustellungsbilanz; endet, wenn die nächste keinen findet</translation>
    </message>
    <message numerus="yes">
        <source>%n order break(s) arriving on %1 in the last %2 min (live tail): %3 gap(s), %4 out of order, %5 repeated since the tail began; keys: %6.</source>
        <translation>
            <numerusform>%n Reihenfolgebruch auf %1 in den letzten %2 min (live): %3 Lücke(n), %4 außer der Reihe, %5 wiederholt seit Beginn; Schlüssel: %6.</numerusform>
            <numerusform>%n Reihenfolgebrüche auf %1 in den letzten %2 min (live): %3 Lücke(n), %4 außer der Reihe, %5 wiederholt seit Beginn; Schlüssel: %6.</numerusform>
        </translation>
    </message>
    <message>
        <source>any gap, out-of-order, repeated number or DLQ-and-continue break in a delivery accounting, or arriving on a topic the live order tail follows (within 15 min)</source>
        <translation>jede Lücke, jeder Reihenfolgefehler, jede wiederholte Nummer und jeder DLQ-und-weiter-Bruch in einer Zustellungsbilanz oder auf einem Topic, dem die Live-Reihenfolge folgt (binnen 15 min)</translation>
    </message>
</context>
<context>
    <name>AlertView</name>
    <message>
        <source>&amp;Acknowledge</source>
        <translation>&amp;Bestätigen</translation>
    </message>
    <message>
        <source>Acknowledge the selected alerts (Ctrl+K)</source>
        <translation>Ausgewählte Alarme bestätigen (Strg+K)</translation>
    </message>
    <message>
        <source>Show &amp;evidence</source>
        <translation>&amp;Befund zeigen</translation>
    </message>
    <message>
        <source>&amp;Snooze</source>
        <translation>&amp;Stummschalten</translation>
    </message>
    <message>
        <source>Open the view that shows the selected alert&apos;s evidence</source>
        <translation>Die Ansicht mit dem Befund des ausgewählten Alarms öffnen</translation>
    </message>
    <message numerus="yes">
        <source>%n minute(s)</source>
        <translation>
            <numerusform>%n Minute</numerusform>
            <numerusform>%n Minuten</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n hour(s)</source>
        <translation>
            <numerusform>%n Stunde</numerusform>
            <numerusform>%n Stunden</numerusform>
        </translation>
    </message>
    <message>
        <source>Why (required), e.g. replay INC-42 in progress</source>
        <translation>Warum (Pflicht), z. B. Replay INC-42 läuft</translation>
    </message>
    <message>
        <source>Silence the selected alerts&apos; notifications, and any new alert of the same rule and subject, for the chosen time; the reason is kept with the alert</source>
        <translation>Benachrichtigungen der ausgewählten Alarme und neuer Alarme derselben Regel und desselben Betreffs für die gewählte Zeit stummschalten; der Grund bleibt beim Alarm</translation>
    </message>
    <message>
        <source>Alerts fire when a condition holds for its rule&apos;s sustained time and clear only after it has been back to normal for a while.</source>
        <translation>Alarme lösen aus, wenn eine Bedingung die Haltezeit ihrer Regel lang besteht, und werden erst aufgehoben, wenn sie eine Weile wieder normal ist.</translation>
    </message>
    <message>
        <source>Snooze for</source>
        <translation>Stummschalten für</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>Regel</translation>
    </message>
    <message>
        <source>Subject</source>
        <translation>Betrifft</translation>
    </message>
    <message>
        <source>Threshold</source>
        <translation>Schwelle</translation>
    </message>
    <message>
        <source>From</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>Thresholds (from the delivery policy where it states them):</source>
        <translation>Schwellen (aus der Zustellrichtlinie, wo sie sie nennt):</translation>
    </message>
</context>
<context>
    <name>ApprovalQueueModel</name>
    <message>
        <source>Not connected to the audit database.</source>
        <translation>Keine Verbindung zur Audit-Datenbank.</translation>
    </message>
    <message>
        <source>Request %1 is %2: only pending requests are approved or rejected.</source>
        <translation>Antrag %1 ist %2: Nur offene Anträge können genehmigt oder abgelehnt werden.</translation>
    </message>
    <message>
        <source>Request %1 expired: it can no longer be approved or rejected.</source>
        <translation>Antrag %1 ist abgelaufen: Er kann nicht mehr genehmigt oder abgelehnt werden.</translation>
    </message>
    <message>
        <source>Your role %1 is not a member of berth_approver.</source>
        <translation>Ihre Rolle %1 ist kein Mitglied von berth_approver.</translation>
    </message>
    <message>
        <source>You requested this yourself: another person must approve or reject it.</source>
        <translation>Sie haben dies selbst beantragt: Eine andere Person muss genehmigen oder ablehnen.</translation>
    </message>
    <message>
        <source>Replay</source>
        <translation>Replay</translation>
    </message>
    <message>
        <source>Edit and replay</source>
        <translation>Replay mit Änderungen</translation>
    </message>
    <message>
        <source>Skip</source>
        <translation>Überspringen</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>no dry run</source>
        <translation>kein Probelauf</translation>
    </message>
    <message numerus="yes">
        <source>%n item(s)</source>
        <translation>
            <numerusform>%n Eintrag</numerusform>
            <numerusform>%n Einträge</numerusform>
        </translation>
    </message>
    <message>
        <source>no-op %1</source>
        <translation>ohne Wirkung %1</translation>
    </message>
    <message>
        <source>ordering risk %1</source>
        <translation>Reihenfolgerisiko %1</translation>
    </message>
    <message>
        <source>No dry run was stored with this request.</source>
        <translation>Zu diesem Antrag wurde kein Probelauf gespeichert.</translation>
    </message>
    <message numerus="yes">
        <source>Blast radius: %n item(s)</source>
        <translation>
            <numerusform>Auswirkungsbereich: %n Eintrag</numerusform>
            <numerusform>Auswirkungsbereich: %n Einträge</numerusform>
        </translation>
    </message>
    <message>
        <source>  destination topics: %1</source>
        <translation>  Ziel-Topics: %1</translation>
    </message>
    <message>
        <source>  source partitions: %1</source>
        <translation>  Quellpartitionen: %1</translation>
    </message>
    <message>
        <source>  distinct keys: %1</source>
        <translation>  verschiedene Schlüssel: %1</translation>
    </message>
    <message>
        <source>  consumers affected: %1</source>
        <translation>  betroffene Consumer: %1</translation>
    </message>
    <message>
        <source>Predicted no-ops: %1 of %2 key(s) already completed in the inbox (%3)</source>
        <translation>Voraussichtlich ohne Wirkung: %1 von %2 Schlüssel(n) in der Inbox bereits abgeschlossen (%3)</translation>
    </message>
    <message>
        <source>Predicted no-ops: not checked %1</source>
        <translation>Voraussichtlich ohne Wirkung: nicht geprüft %1</translation>
    </message>
    <message>
        <source>Ordering risk: %1 item(s) have a later record of the same key; %2 unknown</source>
        <translation>Reihenfolgerisiko: %1 Eintrag/Einträge mit späterem Record desselben Schlüssels; %2 unbekannt</translation>
    </message>
    <message>
        <source>Ordering risk: not checked %1</source>
        <translation>Reihenfolgerisiko: nicht geprüft %1</translation>
    </message>
    <message numerus="yes">
        <source>Policy: %1, %n approval(s) needed</source>
        <translation>
            <numerusform>Richtlinie: %1, %n Genehmigung nötig</numerusform>
            <numerusform>Richtlinie: %1, %n Genehmigungen nötig</numerusform>
        </translation>
    </message>
    <message>
        <source>Other: %1</source>
        <translation>Sonstige: %1</translation>
    </message>
    <message>
        <source>in %1</source>
        <translation>in %1</translation>
    </message>
    <message>
        <source>expired %1 ago</source>
        <translation>vor %1 abgelaufen</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message>
        <source>Request</source>
        <translation>Antrag</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>Requested by</source>
        <translation>Beantragt von</translation>
    </message>
    <message>
        <source>Items</source>
        <translation>Einträge</translation>
    </message>
    <message>
        <source>Age</source>
        <translation>Alter</translation>
    </message>
    <message>
        <source>Expires</source>
        <translation>Läuft ab</translation>
    </message>
    <message>
        <source>Approvals</source>
        <translation>Genehmigungen</translation>
    </message>
    <message>
        <source>Dry run</source>
        <translation>Probelauf</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Begründung</translation>
    </message>
    <message>
        <source>Ticket</source>
        <translation>Ticket</translation>
    </message>
    <message numerus="yes">
        <source>%n copy(ies) merged</source>
        <translation>
            <numerusform>%n Kopie zusammengeführt</numerusform>
            <numerusform>%n Kopien zusammengeführt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n item(s) share an idempotency key</source>
        <translation>
            <numerusform>%n Eintrag teilt einen Idempotenzschlüssel</numerusform>
            <numerusform>%n Einträge teilen einen Idempotenzschlüssel</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Copies merged: %n selected record(s) repeated an original record already in the request (same original coordinates and payload SHA-256) and were filed once</source>
        <translation>
            <numerusform>Kopien zusammengeführt: %n ausgewählter Datensatz wiederholte einen Originaldatensatz, der schon im Antrag ist (gleiche Originalkoordinaten und Payload-SHA-256), und wurde einmal aufgenommen</numerusform>
            <numerusform>Kopien zusammengeführt: %n ausgewählte Datensätze wiederholten einen Originaldatensatz, der schon im Antrag ist (gleiche Originalkoordinaten und Payload-SHA-256), und wurden einmal aufgenommen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Shared idempotency keys: %n item(s) are different records with a key another item has: %1</source>
        <translation>
            <numerusform>Geteilte Idempotenzschlüssel: %n Eintrag ist ein anderer Datensatz mit einem Schlüssel, den ein anderer Eintrag hat: %1</numerusform>
            <numerusform>Geteilte Idempotenzschlüssel: %n Einträge sind andere Datensätze mit einem Schlüssel, den ein anderer Eintrag hat: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>  for consumer: %1 (verified after execution); also receives: %2</source>
        <translation>  für Consumer: %1 (nach der Ausführung verifiziert); empfängt auch: %2</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keiner</translation>
    </message>
    <message>
        <source>Release and replay: %1 parked or failed inbox row(s) released right before their records are produced; %2 cannot be released (no releaseTo in their mapping)</source>
        <translation>Freigeben und Replay: %1 geparkte oder fehlgeschlagene Inbox-Zeile(n) werden direkt vor dem Produzieren ihrer Records freigegeben; %2 können nicht freigegeben werden (kein releaseTo in ihrer Zuordnung)</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>wartend</translation>
    </message>
    <message>
        <source>approved</source>
        <translation>genehmigt</translation>
    </message>
    <message>
        <source>rejected</source>
        <translation>abgelehnt</translation>
    </message>
    <message>
        <source>expired</source>
        <translation>abgelaufen</translation>
    </message>
    <message>
        <source>executing</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>completed</source>
        <translation>abgeschlossen</translation>
    </message>
    <message>
        <source>partially failed</source>
        <translation>teilweise fehlgeschlagen</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <source>Reclaim of stuck rows: %1 row(s) of %2 in progress for over %3 s, released for retry (%4) right before their records from %5 are replayed; %6 record(s) are behind the group&apos;s committed offset (not seen again otherwise); %7 row(s) have no record and are not in this request; %8 pinned for release</source>
        <translation>Rückholung hängender Zeilen: %1 Zeile(n) von %2 seit über %3 s in Bearbeitung, zur Wiederholung freigegeben (%4) unmittelbar bevor ihre Datensätze aus %5 erneut gesendet werden; %6 Datensatz/Datensätze liegen hinter dem bestätigten Offset der Gruppe (sonst nicht erneut gesehen); %7 Zeile(n) haben keinen Datensatz und gehören nicht zu dieser Anfrage; %8 zur Freigabe festgehalten</translation>
    </message>
    <message>
        <source>Reset offsets</source>
        <translation>Offsets zurücksetzen</translation>
    </message>
    <message numerus="yes">
        <source>Offset reset of group %1 on %2 to %3: %n record(s) processed again, %4 skipped</source>
        <translation>
            <numerusform>Offset-Reset der Gruppe %1 auf %2 nach %3: %n Datensatz erneut verarbeitet, %4 übersprungen</numerusform>
            <numerusform>Offset-Reset der Gruppe %1 auf %2 nach %3: %n Datensätze erneut verarbeitet, %4 übersprungen</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ApprovalQueueView</name>
    <message>
        <source>&amp;Approve</source>
        <translation>Geneh&amp;migen</translation>
    </message>
    <message>
        <source>&amp;Reject</source>
        <translation>A&amp;blehnen</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>Item</source>
        <translation>Eintrag</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>Idempotency key</source>
        <translation>Idempotenzschlüssel</translation>
    </message>
    <message>
        <source>Payload SHA-256</source>
        <translation>Payload-SHA-256</translation>
    </message>
    <message>
        <source>Edited</source>
        <translation>Bearbeitet</translation>
    </message>
    <message>
        <source>Summary and dry run</source>
        <translation>Übersicht und Probelauf</translation>
    </message>
    <message>
        <source>Items</source>
        <translation>Einträge</translation>
    </message>
    <message>
        <source>Payload diff</source>
        <translation>Payload-Diff</translation>
    </message>
    <message>
        <source>Comment for the audit log (why you approve or reject)</source>
        <translation>Kommentar für das Audit-Log (warum Sie genehmigen oder ablehnen)</translation>
    </message>
    <message>
        <source>Comment:</source>
        <translation>Kommentar:</translation>
    </message>
    <message>
        <source>Select an edited item to compare its payload with the original record.</source>
        <translation>Wählen Sie einen bearbeiteten Eintrag, um seine Payload mit dem ursprünglichen Record zu vergleichen.</translation>
    </message>
    <message>
        <source>Select a request to review it.</source>
        <translation>Wählen Sie einen Antrag zur Prüfung aus.</translation>
    </message>
    <message>
        <source>No requests are waiting for approval.</source>
        <translation>Keine Anträge warten auf Genehmigung.</translation>
    </message>
    <message>
        <source>Reading request %1…</source>
        <translation>Antrag %1 wird gelesen …</translation>
    </message>
    <message>
        <source>Select a pending request.</source>
        <translation>Wählen Sie einen offenen Antrag.</translation>
    </message>
    <message numerus="yes">
        <source>Request %1 — %2, %n item(s)</source>
        <translation>
            <numerusform>Antrag %1 — %2, %n Eintrag</numerusform>
            <numerusform>Antrag %1 — %2, %n Einträge</numerusform>
        </translation>
    </message>
    <message>
        <source>Requested by %1 at %2</source>
        <translation>Beantragt von %1 am %2</translation>
    </message>
    <message>
        <source>Expires at %1</source>
        <translation>Läuft ab am %1</translation>
    </message>
    <message>
        <source>Expired at %1: it can no longer be approved</source>
        <translation>Abgelaufen am %1: Er kann nicht mehr genehmigt werden</translation>
    </message>
    <message>
        <source>Status: %1, %2 of %3 approval(s)</source>
        <translation>Status: %1, %2 von %3 Genehmigung(en)</translation>
    </message>
    <message>
        <source>Reason: %1 %2</source>
        <translation>Begründung: %1 %2</translation>
    </message>
    <message>
        <source>Ticket: %1</source>
        <translation>Ticket: %1</translation>
    </message>
    <message>
        <source>Destination: each item&apos;s original topic</source>
        <translation>Ziel: das ursprüngliche Topic jedes Eintrags</translation>
    </message>
    <message>
        <source>Destination: %1</source>
        <translation>Ziel: %1</translation>
    </message>
    <message>
        <source>Rate limit: %1 messages/s</source>
        <translation>Ratenbegrenzung: %1 Nachrichten/s</translation>
    </message>
    <message>
        <source>Rate limit: none</source>
        <translation>Ratenbegrenzung: keine</translation>
    </message>
    <message>
        <source>Decisions:</source>
        <translation>Entscheidungen:</translation>
    </message>
    <message>
        <source>  %1 approved at %2: %3</source>
        <translation>  %1 hat am %2 genehmigt: %3</translation>
    </message>
    <message>
        <source>  %1 rejected at %2: %3</source>
        <translation>  %1 hat am %2 abgelehnt: %3</translation>
    </message>
    <message>
        <source>The first %1 items are listed.</source>
        <translation>Die ersten %1 Einträge sind aufgeführt.</translation>
    </message>
    <message>
        <source>%1 [%2] @ %3</source>
        <translation>%1 [%2] @ %3</translation>
    </message>
    <message numerus="yes">
        <source>edited (%n byte(s))</source>
        <translation>
            <numerusform>bearbeitet (%n Byte)</numerusform>
            <numerusform>bearbeitet (%n Bytes)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>edited (%n byte(s), schema id %1)</source>
        <translation>
            <numerusform>bearbeitet (%n Byte, Schema-ID %1)</numerusform>
            <numerusform>bearbeitet (%n Bytes, Schema-ID %1)</numerusform>
        </translation>
    </message>
    <message>
        <source>Could not read request %1: %2</source>
        <translation>Antrag %1 konnte nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source># The original record is unavailable: %1</source>
        <translation># Der ursprüngliche Record ist nicht verfügbar: %1</translation>
    </message>
    <message>
        <source>the item is not a Kafka record</source>
        <translation>der Eintrag ist kein Kafka-Record</translation>
    </message>
    <message>
        <source># Edited payload:</source>
        <translation># Bearbeitete Payload:</translation>
    </message>
    <message>
        <source># Reading the original record %1 from Kafka…</source>
        <translation># Ursprünglicher Record %1 wird aus Kafka gelesen …</translation>
    </message>
    <message>
        <source># Item %1: original record %2 (-) against the edited payload (+)</source>
        <translation># Eintrag %1: ursprünglicher Record %2 (-) gegen die bearbeitete Payload (+)</translation>
    </message>
    <message>
        <source># The original matches the pinned SHA-256.</source>
        <translation># Das Original entspricht dem festgehaltenen SHA-256.</translation>
    </message>
    <message>
        <source># WARNING: the record at this offset does not match the pinned SHA-256; the executor will refuse this item.</source>
        <translation># WARNUNG: Der Record an diesem Offset entspricht nicht dem festgehaltenen SHA-256; der Executor wird diesen Eintrag ablehnen.</translation>
    </message>
    <message>
        <source>Approving request %1…</source>
        <translation>Antrag %1 wird genehmigt …</translation>
    </message>
    <message>
        <source>Rejecting request %1…</source>
        <translation>Antrag %1 wird abgelehnt …</translation>
    </message>
    <message>
        <source>Request %1 approved.</source>
        <translation>Antrag %1 genehmigt.</translation>
    </message>
    <message>
        <source>Request %1 rejected.</source>
        <translation>Antrag %1 abgelehnt.</translation>
    </message>
    <message>
        <source>The database refused to approve request %1: %2</source>
        <translation>Die Datenbank hat die Genehmigung von Antrag %1 verweigert: %2</translation>
    </message>
    <message>
        <source>The database refused to reject request %1: %2</source>
        <translation>Die Datenbank hat die Ablehnung von Antrag %1 verweigert: %2</translation>
    </message>
    <message>
        <source>The audit database cannot be read, so the queue is unknown: %1</source>
        <translation>Die Audit-Datenbank ist nicht lesbar, die Warteschlange ist daher unbekannt: %1</translation>
    </message>
    <message>
        <source>Request %1 left the queue; reading what happened to it…</source>
        <translation>Antrag %1 hat die Warteschlange verlassen; was mit ihm geschah, wird gelesen …</translation>
    </message>
    <message>
        <source>approved by %1</source>
        <translation>genehmigt von %1</translation>
    </message>
    <message>
        <source>rejected by %1</source>
        <translation>abgelehnt von %1</translation>
    </message>
    <message>
        <source>Request %1 left the queue: it is %2 now.</source>
        <translation>Antrag %1 hat die Warteschlange verlassen: Er ist jetzt %2.</translation>
    </message>
    <message>
        <source>Request %1 left the queue: it is %2 now (%3).</source>
        <translation>Antrag %1 hat die Warteschlange verlassen: Er ist jetzt %2 (%3).</translation>
    </message>
    <message>
        <source>Request %1 left the queue; what happened to it could not be read: %2</source>
        <translation>Antrag %1 hat die Warteschlange verlassen; was mit ihm geschah, ließ sich nicht lesen: %2</translation>
    </message>
</context>
<context>
    <name>AuditTrailModel</name>
    <message>
        <source>Reading the audit log…</source>
        <translation>Audit-Log wird gelesen …</translation>
    </message>
    <message>
        <source>Could not read the audit log: %1</source>
        <translation>Das Audit-Log konnte nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>No audit events match the filter.</source>
        <translation>Keine Audit-Ereignisse passen zum Filter.</translation>
    </message>
    <message>
        <source>hash %1
previous %2</source>
        <translation>Hash %1
vorheriger %2</translation>
    </message>
    <message>
        <source>Seq</source>
        <translation>Nr.</translation>
    </message>
    <message>
        <source>Time (UTC)</source>
        <translation>Zeit (UTC)</translation>
    </message>
    <message>
        <source>Person</source>
        <translation>Person</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>Request</source>
        <translation>Antrag</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Details</translation>
    </message>
    <message>
        <source>%1 event(s) shown; more match: load more or narrow the filter.</source>
        <translation>%1 Ereignis(se) angezeigt; weitere passen: mehr laden oder den Filter enger fassen.</translation>
    </message>
    <message>
        <source>%1 event(s).</source>
        <translation>%1 Ereignis(se).</translation>
    </message>
</context>
<context>
    <name>AuditTrailView</name>
    <message>
        <source>From</source>
        <translation>Von</translation>
    </message>
    <message>
        <source>to</source>
        <translation>bis</translation>
    </message>
    <message>
        <source>Load &amp;more</source>
        <translation>&amp;Mehr laden</translation>
    </message>
    <message>
        <source>&amp;Verify chain</source>
        <translation>Kette &amp;prüfen</translation>
    </message>
    <message>
        <source>anyone</source>
        <translation>alle</translation>
    </message>
    <message>
        <source>any action (several: comma-separated)</source>
        <translation>jede Aktion (mehrere: kommagetrennt)</translation>
    </message>
    <message>
        <source>&amp;Apply</source>
        <translation>An&amp;wenden</translation>
    </message>
    <message>
        <source>E&amp;xport…</source>
        <translation>E&amp;xportieren …</translation>
    </message>
    <message>
        <source>Write every event the filter selects to CSV or JSON lines</source>
        <translation>Alle vom Filter ausgewählten Ereignisse als CSV oder JSON Lines schreiben</translation>
    </message>
    <message>
        <source>Recompute the hash chain of the whole audit log and report the first broken row</source>
        <translation>Die Hash-Kette des gesamten Audit-Logs neu berechnen und die erste fehlerhafte Zeile melden</translation>
    </message>
    <message>
        <source>Person:</source>
        <translation>Person:</translation>
    </message>
    <message>
        <source>Action:</source>
        <translation>Aktion:</translation>
    </message>
    <message>
        <source>Export audit events</source>
        <translation>Audit-Ereignisse exportieren</translation>
    </message>
    <message>
        <source>CSV (*.csv);;JSON lines (*.jsonl)</source>
        <translation>CSV (*.csv);;JSON Lines (*.jsonl)</translation>
    </message>
    <message>
        <source>The hash chain has not been verified in this session.</source>
        <translation>Die Hash-Kette wurde in dieser Sitzung nicht geprüft.</translation>
    </message>
    <message>
        <source>Reading the audit log…</source>
        <translation>Audit-Log wird gelesen …</translation>
    </message>
    <message>
        <source>Cancel &amp;verify</source>
        <translation>&amp;Prüfung abbrechen</translation>
    </message>
    <message>
        <source>Verifying the hash chain…</source>
        <translation>Hash-Kette wird geprüft …</translation>
    </message>
    <message>
        <source>Verifying the hash chain… %1 of %2 row(s) checked</source>
        <translation>Hash-Kette wird geprüft … %1 von %2 Zeile(n) geprüft</translation>
    </message>
    <message>
        <source>Verification did not finish: %1</source>
        <translation>Prüfung nicht abgeschlossen: %1</translation>
    </message>
    <message>
        <source>Chain OK: %1 row(s) verified, seq 1 to %2; last hash %3 (%4 ms).</source>
        <translation>Kette OK: %1 Zeile(n) geprüft, Nr. 1 bis %2; letzter Hash %3 (%4 ms).</translation>
    </message>
    <message>
        <source>Chain BROKEN at seq %1: %2. The %3 row(s) before it verified.</source>
        <translation>Kette BESCHÄDIGT bei Nr. %1: %2. Die %3 Zeile(n) davor sind geprüft.</translation>
    </message>
    <message>
        <source>Exporting audit events to %1…</source>
        <translation>Audit-Ereignisse werden nach %1 exportiert …</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Exporting audit events… %1 written</source>
        <translation>Audit-Ereignisse werden exportiert … %1 geschrieben</translation>
    </message>
    <message numerus="yes">
        <source>Exported %n audit event(s) to %1</source>
        <translation>
            <numerusform>%n Audit-Ereignis nach %1 exportiert</numerusform>
            <numerusform>%n Audit-Ereignisse nach %1 exportiert</numerusform>
        </translation>
    </message>
    <message>
        <source>Export to %1 failed: %2</source>
        <translation>Export nach %1 fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>seq %1 at %2 by %3</source>
        <translation>Nr. %1 am %2 von %3</translation>
    </message>
    <message>
        <source>action %1%2</source>
        <translation>Aktion %1%2</translation>
    </message>
    <message>
        <source>, request %1</source>
        <translation>, Antrag %1</translation>
    </message>
    <message>
        <source>hash      %1</source>
        <translation>Hash       %1</translation>
    </message>
    <message>
        <source>prev hash %1</source>
        <translation>vorh. Hash %1</translation>
    </message>
    <message>
        <source>Newest first.</source>
        <translation>Neueste zuerst.</translation>
    </message>
    <message>
        <source>Oldest first.</source>
        <translation>Älteste zuerst.</translation>
    </message>
</context>
<context>
    <name>ChecklistModel</name>
    <message>
        <source>No delivery policy is loaded: the checklist needs one (profile setting or --policy).</source>
        <translation>Keine Zustellrichtlinie geladen: Die Checkliste braucht eine (Profileinstellung oder --policy).</translation>
    </message>
    <message numerus="yes">
        <source>%n consumer(s): %1 answer(s) missing, %2 contradicted by live evidence, %3 to watch.</source>
        <translation>
            <numerusform>%n Consumer: %1 Antwort(en) fehlen, %2 durch Live-Befunde widerlegt, %3 zu beobachten.</numerusform>
            <numerusform>%n Consumer: %1 Antwort(en) fehlen, %2 durch Live-Befunde widerlegt, %3 zu beobachten.</numerusform>
        </translation>
    </message>
    <message>
        <source>— not stated —</source>
        <translation>— nicht angegeben —</translation>
    </message>
    <message>
        <source>Consumer</source>
        <translation>Consumer</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>Frage</translation>
    </message>
    <message>
        <source>Policy says</source>
        <translation>Laut Richtlinie</translation>
    </message>
    <message>
        <source>Berth sees</source>
        <translation>Berth sieht</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>Bewertung</translation>
    </message>
</context>
<context>
    <name>ChecklistView</name>
    <message>
        <source>Only &amp;problems</source>
        <translation>Nur &amp;Probleme</translation>
    </message>
    <message>
        <source>Export &amp;markdown…</source>
        <translation>Als &amp;Markdown exportieren …</translation>
    </message>
    <message>
        <source>Export checklist</source>
        <translation>Checkliste exportieren</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>%1 konnte nicht geschrieben werden: %2</translation>
    </message>
</context>
<context>
    <name>ConnectionTest</name>
    <message>
        <source>Rejected by librdkafka: %1</source>
        <translation>Von librdkafka abgelehnt: %1</translation>
    </message>
    <message>
        <source>Could not reach %1: %2</source>
        <translation>%1 nicht erreichbar: %2</translation>
    </message>
    <message>
        <source>Connected to %1: %2 broker(s), %3 topic(s)</source>
        <translation>Verbunden mit %1: %2 Broker, %3 Topic(s)</translation>
    </message>
    <message>
        <source>broker %1 at %2:%3%4</source>
        <translation>Broker %1 auf %2:%3%4</translation>
    </message>
    <message>
        <source> (controller)</source>
        <translation> (Controller)</translation>
    </message>
    <message>
        <source>Could not connect: %1</source>
        <translation>Verbindung fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>sslmode: %1</source>
        <translation>sslmode: %1</translation>
    </message>
    <message>
        <source>Connected to database %1 as %2</source>
        <translation>Verbunden mit Datenbank %1 als %2</translation>
    </message>
    <message>
        <source>Connected, but a first query failed: %1</source>
        <translation>Verbunden, aber eine erste Abfrage ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>server: %1</source>
        <translation>Server: %1</translation>
    </message>
    <message>
        <source>host: %1</source>
        <translation>Host: %1</translation>
    </message>
    <message>
        <source>Unix socket in %1</source>
        <translation>Unix-Socket in %1</translation>
    </message>
    <message>
        <source>sslmode: %1; TLS in use: %2</source>
        <translation>sslmode: %1; TLS aktiv: %2</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
</context>
<context>
    <name>ConnectionsModel</name>
    <message>
        <source>Kafka cluster</source>
        <translation>Kafka-Cluster</translation>
    </message>
    <message>
        <source>Brokers</source>
        <translation>Broker</translation>
    </message>
    <message>
        <source>Topics</source>
        <translation>Topics</translation>
    </message>
    <message>
        <source>Consumer groups</source>
        <translation>Consumer-Gruppen</translation>
    </message>
    <message>
        <source>Inbox database</source>
        <translation>Inbox-Datenbank</translation>
    </message>
    <message>
        <source>Connection</source>
        <translation>Verbindung</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>not connected</source>
        <translation>nicht verbunden</translation>
    </message>
    <message>
        <source>Kafka %1</source>
        <translation>Kafka %1</translation>
    </message>
    <message>
        <source>Broker %1 — %2:%3</source>
        <translation>Broker %1 — %2:%3</translation>
    </message>
    <message numerus="yes">
        <source>%n partition(s)</source>
        <translation>
            <numerusform>%n Partition</numerusform>
            <numerusform>%n Partitionen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n broker(s)</source>
        <translation>
            <numerusform>%n Broker</numerusform>
            <numerusform>%n Broker</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n topic(s)</source>
        <translation>
            <numerusform>%n Topic</numerusform>
            <numerusform>%n Topics</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n group(s)</source>
        <translation>
            <numerusform>%n Gruppe</numerusform>
            <numerusform>%n Gruppen</numerusform>
        </translation>
    </message>
    <message>
        <source>Groups %1</source>
        <translation>Gruppen %1</translation>
    </message>
</context>
<context>
    <name>Console</name>
    <message>
        <source>&amp;Lag</source>
        <translation>&amp;Lag</translation>
    </message>
    <message>
        <source>&amp;Charts</source>
        <translation>Dia&amp;gramme</translation>
    </message>
    <message>
        <source>&amp;DLQ</source>
        <translation>DL&amp;Q</translation>
    </message>
    <message>
        <source>&amp;Inbox</source>
        <translation>&amp;Inbox</translation>
    </message>
    <message>
        <source>&amp;Parked</source>
        <translation>Gepar&amp;kt</translation>
    </message>
    <message>
        <source>C&amp;hecklist</source>
        <translation>&amp;Checkliste</translation>
    </message>
    <message>
        <source>&amp;Alerts</source>
        <translation>Ala&amp;rme</translation>
    </message>
    <message>
        <source>&amp;Log</source>
        <translation>Pro&amp;tokoll</translation>
    </message>
    <message>
        <source>Delivery policy has errors; lag SLOs from it may be incomplete: %1</source>
        <translation>Die Zustellrichtlinie enthält Fehler; ihre Lag-SLOs sind möglicherweise unvollständig: %1</translation>
    </message>
    <message numerus="yes">
        <source>Delivery policy loaded: %n lag SLO(s)</source>
        <translation>
            <numerusform>Zustellrichtlinie geladen: %n Lag-SLO</numerusform>
            <numerusform>Zustellrichtlinie geladen: %n Lag-SLOs</numerusform>
        </translation>
    </message>
    <message>
        <source>Berth alert: %1 — %2</source>
        <translation>Berth-Alarm: %1 — %2</translation>
    </message>
    <message numerus="yes">
        <source>Berth — %n active alert(s)</source>
        <translation>
            <numerusform>Berth — %n aktiver Alarm</numerusform>
            <numerusform>Berth — %n aktive Alarme</numerusform>
        </translation>
    </message>
    <message>
        <source>Berth — delivery correctness console</source>
        <translation>Berth — Konsole für Zustellkorrektheit</translation>
    </message>
    <message>
        <source>connecting…</source>
        <translation>wird verbunden …</translation>
    </message>
    <message>
        <source>Kafka: connecting to %1…</source>
        <translation>Kafka: Verbindung zu %1 wird aufgebaut …</translation>
    </message>
    <message>
        <source>connected</source>
        <translation>verbunden</translation>
    </message>
    <message>
        <source>Kafka: connected to %1</source>
        <translation>Kafka: verbunden mit %1</translation>
    </message>
    <message>
        <source>degraded</source>
        <translation>eingeschränkt</translation>
    </message>
    <message>
        <source>Kafka: degraded (%1)</source>
        <translation>Kafka: eingeschränkt (%1)</translation>
    </message>
    <message>
        <source>Kafka cluster %1 answered only in part; figures may be incomplete.
%2</source>
        <translation>Kafka-Cluster %1 hat nur teilweise geantwortet; die Zahlen sind möglicherweise unvollständig.
%2</translation>
    </message>
    <message>
        <source>settings rejected</source>
        <translation>Einstellungen abgelehnt</translation>
    </message>
    <message>
        <source>Kafka: settings rejected</source>
        <translation>Kafka: Einstellungen abgelehnt</translation>
    </message>
    <message>
        <source>librdkafka rejected the cluster settings — fix the profile and reconnect.
%1</source>
        <translation>librdkafka hat die Cluster-Einstellungen abgelehnt — Profil korrigieren und neu verbinden.
%1</translation>
    </message>
    <message>
        <source>unreachable</source>
        <translation>nicht erreichbar</translation>
    </message>
    <message>
        <source>Kafka: unreachable (%1)</source>
        <translation>Kafka: nicht erreichbar (%1)</translation>
    </message>
    <message>
        <source>Kafka cluster unreachable — the lag shown is from the last good sample, and Berth keeps retrying.
%1</source>
        <translation>Kafka-Cluster nicht erreichbar — der angezeigte Lag stammt aus der letzten erfolgreichen Messung; Berth versucht es weiter.
%1</translation>
    </message>
    <message>
        <source>%1 %2/min (%3 %)</source>
        <translation>%1 %2/min (%3 %)</translation>
    </message>
    <message>
        <source>Duplicate idempotency keys arriving, last minute: %1</source>
        <translation>Doppelte Idempotenzschlüssel treffen ein, letzte Minute: %1</translation>
    </message>
    <message>
        <source>Duplicate counting unavailable: %1</source>
        <translation>Duplikatzählung nicht verfügbar: %1</translation>
    </message>
    <message>
        <source>inbox redeliveries (%1)</source>
        <translation>Inbox-Neuzustellungen (%1)</translation>
    </message>
    <message numerus="yes">
        <source>%n group(s), %1 not OK, total lag %2 — sampled %3 in %4 ms</source>
        <translation>
            <numerusform>%n Gruppe, %1 nicht OK, Gesamt-Lag %2 — gemessen %3 in %4 ms</numerusform>
            <numerusform>%n Gruppen, %1 nicht OK, Gesamt-Lag %2 — gemessen %3 in %4 ms</numerusform>
        </translation>
    </message>
    <message>
        <source>Inbox database</source>
        <translation>Inbox-Datenbank</translation>
    </message>
    <message>
        <source>not configured</source>
        <translation>nicht konfiguriert</translation>
    </message>
    <message>
        <source>Database: not configured</source>
        <translation>Datenbank: nicht konfiguriert</translation>
    </message>
    <message>
        <source>Database: connected</source>
        <translation>Datenbank: verbunden</translation>
    </message>
    <message>
        <source>Database: connecting…</source>
        <translation>Datenbank: Verbindung wird aufgebaut …</translation>
    </message>
    <message>
        <source>unavailable</source>
        <translation>nicht verfügbar</translation>
    </message>
    <message>
        <source>Database: unavailable — retrying (%1)</source>
        <translation>Datenbank: nicht verfügbar — neuer Versuch (%1)</translation>
    </message>
    <message>
        <source>disconnected</source>
        <translation>getrennt</translation>
    </message>
    <message>
        <source>Database: disconnected</source>
        <translation>Datenbank: getrennt</translation>
    </message>
    <message>
        <source>Cannot create %1</source>
        <translation>%1 kann nicht angelegt werden</translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation>%1 kann nicht geschrieben werden</translation>
    </message>
    <message>
        <source>Inbox mappings apply to this session only: profile “%1” is not stored.</source>
        <translation>Inbox-Zuordnungen gelten nur für diese Sitzung: Profil „%1“ ist nicht gespeichert.</translation>
    </message>
    <message>
        <source>Accou&amp;nting</source>
        <translation>&amp;Verbuchung</translation>
    </message>
    <message>
        <source>%1 is not in the delivery policy: no promise to check.</source>
        <translation>%1 steht nicht in der Zustellrichtlinie: kein Versprechen zu prüfen.</translation>
    </message>
</context>
<context>
    <name>ConsumerChecklist</name>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <source>replay allowed</source>
        <translation>Replay erlaubt</translation>
    </message>
    <message>
        <source>replay not allowed</source>
        <translation>Replay nicht erlaubt</translation>
    </message>
    <message>
        <source>replay only where no external side effect repeats</source>
        <translation>Replay nur, wo sich keine externe Nebenwirkung wiederholt</translation>
    </message>
    <message>
        <source>unrecognised value “%1”</source>
        <translation>unbekannter Wert „%1“</translation>
    </message>
    <message>
        <source>What delivery semantics are assumed?</source>
        <translation>Welche Zustellsemantik wird angenommen?</translation>
    </message>
    <message>
        <source>, duplicates: %1</source>
        <translation>, Duplikate: %1</translation>
    </message>
    <message>
        <source>%1 % of arrivals repeat a key</source>
        <translation>%1 % der Eingänge wiederholen einen Schlüssel</translation>
    </message>
    <message numerus="yes">
        <source>%n inbox row(s) delivered more than once</source>
        <translation>
            <numerusform>%n Inbox-Zeile mehrfach zugestellt</numerusform>
            <numerusform>%n Inbox-Zeilen mehrfach zugestellt</numerusform>
        </translation>
    </message>
    <message>
        <source>Is the consumer idempotent (and how)?</source>
        <translation>Ist der Consumer idempotent (und wie)?</translation>
    </message>
    <message>
        <source>Are external side effects deduplicated?</source>
        <translation>Werden externe Nebenwirkungen dedupliziert?</translation>
    </message>
    <message>
        <source>provider idempotency: %1</source>
        <translation>Idempotenz beim Anbieter: %1</translation>
    </message>
    <message>
        <source>When is the offset committed?</source>
        <translation>Wann wird der Offset committet?</translation>
    </message>
    <message>
        <source>Is ordering required?</source>
        <translation>Ist eine Reihenfolge erforderlich?</translation>
    </message>
    <message>
        <source>at most %1 attempts, %2</source>
        <translation>höchstens %1 Versuche, %2</translation>
    </message>
    <message>
        <source>backoff not stated</source>
        <translation>Backoff nicht angegeben</translation>
    </message>
    <message>
        <source>Is retry bounded?</source>
        <translation>Sind Wiederholungen begrenzt?</translation>
    </message>
    <message>
        <source>parked after %1 attempts</source>
        <translation>nach %1 Versuchen geparkt</translation>
    </message>
    <message numerus="yes">
        <source>%n parked or terminally failed inbox row(s)</source>
        <translation>
            <numerusform>%n geparkte oder endgültig fehlgeschlagene Inbox-Zeile</numerusform>
            <numerusform>%n geparkte oder endgültig fehlgeschlagene Inbox-Zeilen</numerusform>
        </translation>
    </message>
    <message>
        <source>What happens to a poison message?</source>
        <translation>Was passiert mit einer Poison-Message?</translation>
    </message>
    <message>
        <source>no DLQ</source>
        <translation>keine DLQ</translation>
    </message>
    <message>
        <source>topic not stated</source>
        <translation>Topic nicht angegeben</translation>
    </message>
    <message>
        <source>not stated</source>
        <translation>nicht angegeben</translation>
    </message>
    <message>
        <source>topic %1 does not exist in the cluster</source>
        <translation>Topic %1 existiert nicht im Cluster</translation>
    </message>
    <message>
        <source>%1 dead letters/min</source>
        <translation>%1 Dead Letters/min</translation>
    </message>
    <message numerus="yes">
        <source>%n record(s) waiting</source>
        <translation>
            <numerusform>%n Record wartet</numerusform>
            <numerusform>%n Records warten</numerusform>
        </translation>
    </message>
    <message>
        <source>Is the DLQ owned?</source>
        <translation>Hat die DLQ einen Verantwortlichen?</translation>
    </message>
    <message>
        <source>manual review required</source>
        <translation>manuelle Prüfung erforderlich</translation>
    </message>
    <message>
        <source>(topic %1 says: %2)</source>
        <translation>(laut Topic %1: %2)</translation>
    </message>
    <message>
        <source>Is replay safe?</source>
        <translation>Ist ein Replay sicher?</translation>
    </message>
    <message>
        <source>the group has no committed offsets in the cluster</source>
        <translation>die Gruppe hat keine committeten Offsets im Cluster</translation>
    </message>
    <message>
        <source>status %1</source>
        <translation>Status %1</translation>
    </message>
    <message>
        <source>, %1 s behind</source>
        <translation>, %1 s Rückstand</translation>
    </message>
    <message>
        <source>Is lag monitored against an SLO?</source>
        <translation>Wird der Lag gegen ein SLO überwacht?</translation>
    </message>
    <message>
        <source>answered</source>
        <translation>beantwortet</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>fehlt</translation>
    </message>
    <message>
        <source>contradicted</source>
        <translation>widerlegt</translation>
    </message>
    <message>
        <source>caution</source>
        <translation>Vorsicht</translation>
    </message>
    <message>
        <source>Consumer review checklist</source>
        <translation>Checkliste zur Consumer-Prüfung</translation>
    </message>
    <message>
        <source>Policy: %1. Evidence as of %2 (UTC).</source>
        <translation>Richtlinie: %1. Befunde mit Stand %2 (UTC).</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>Frage</translation>
    </message>
    <message>
        <source>Policy</source>
        <translation>Richtlinie</translation>
    </message>
    <message>
        <source>Evidence</source>
        <translation>Befund</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>Bewertung</translation>
    </message>
    <message>
        <source>What side effects happen?</source>
        <translation>Welche Nebenwirkungen treten auf?</translation>
    </message>
    <message>
        <source>How does the schema evolve, and who checks compatibility?</source>
        <translation>Wie entwickelt sich das Schema, und wer prüft die Kompatibilität?</translation>
    </message>
    <message>
        <source>Are duplicate tests written?</source>
        <translation>Gibt es Tests für Duplikate?</translation>
    </message>
    <message>
        <source>Is crash-window behaviour tested?</source>
        <translation>Ist das Verhalten im Absturzfenster getestet?</translation>
    </message>
    <message>
        <source>Is the runbook ready?</source>
        <translation>Ist das Runbook fertig?</translation>
    </message>
    <message>
        <source>Retry taxonomy: which failures are retryable, terminal, poison, or business outcomes?</source>
        <translation>Fehlerklassen: welche Fehler sind wiederholbar, endgültig, Poison oder fachliche Ergebnisse?</translation>
    </message>
    <message>
        <source>Backpressure: what pauses producers when lag crosses the threshold?</source>
        <translation>Gegendruck: was bremst die Producer, wenn der Lag die Schwelle überschreitet?</translation>
    </message>
    <message>
        <source>review: %1</source>
        <translation>Review: %1</translation>
    </message>
    <message>
        <source>manual — not stated</source>
        <translation>manuell — nicht angegeben</translation>
    </message>
    <message>
        <source>%1: no (at-most-once: lost instead)</source>
        <translation>%1: nein (at-most-once: stattdessen verloren)</translation>
    </message>
    <message>
        <source>%1: yes, %2 redelivers</source>
        <translation>%1: ja, %2 stellt erneut zu</translation>
    </message>
    <message>
        <source>Can a message be duplicated?</source>
        <translation>Kann eine Nachricht doppelt ankommen?</translation>
    </message>
    <message>
        <source>What is the message id (idempotency key)?</source>
        <translation>Was ist die Nachrichten-ID (Idempotenzschlüssel)?</translation>
    </message>
    <message>
        <source>What is the partition key?</source>
        <translation>Was ist der Partitionsschlüssel?</translation>
    </message>
    <message>
        <source>strategy: none — not idempotent (a gap)</source>
        <translation>strategy: none — nicht idempotent (eine Lücke)</translation>
    </message>
    <message>
        <source>redelivered after the restart; %1 makes the repeat a no-op (from idempotency and offsetCommit)</source>
        <translation>nach dem Neustart erneut zugestellt; %1 macht die Wiederholung wirkungslos (aus idempotency und offsetCommit)</translation>
    </message>
    <message>
        <source>redelivered after the restart and applied again: the consumer is not idempotent</source>
        <translation>nach dem Neustart erneut zugestellt und nochmals angewandt: der Consumer ist nicht idempotent</translation>
    </message>
    <message>
        <source>What happens if a crash occurs before the ack?</source>
        <translation>Was passiert bei einem Absturz vor dem Ack?</translation>
    </message>
    <message>
        <source>the repeat reaches the provider, which deduplicates it (externalProviderIdempotency)</source>
        <translation>die Wiederholung erreicht den Anbieter, der sie dedupliziert (externalProviderIdempotency)</translation>
    </message>
    <message>
        <source>the side effect repeats: the provider does not deduplicate</source>
        <translation>die Nebenwirkung wiederholt sich: der Anbieter dedupliziert nicht</translation>
    </message>
    <message>
        <source>What happens if a crash occurs after the side effect?</source>
        <translation>Was passiert bei einem Absturz nach der Nebenwirkung?</translation>
    </message>
    <message numerus="yes">
        <source>%n exhausted their retries in the last 15 min</source>
        <translation>
            <numerusform>%n hat in den letzten 15 min die Wiederholungen erschöpft</numerusform>
            <numerusform>%n haben in den letzten 15 min die Wiederholungen erschöpft</numerusform>
        </translation>
    </message>
    <message>
        <source>any arrival alerts</source>
        <translation>jeder Eingang alarmiert</translation>
    </message>
    <message>
        <source>alert at %1 in %2 min%3</source>
        <translation>Alarm bei %1 in %2 min%3</translation>
    </message>
    <message>
        <source> (default)</source>
        <translation> (Voreinstellung)</translation>
    </message>
    <message>
        <source>%1, owner %2; %3</source>
        <translation>%1, verantwortlich %2; %3</translation>
    </message>
    <message>
        <source>(but idempotency strategy: none)</source>
        <translation>(aber idempotency strategy: none)</translation>
    </message>
    <message numerus="yes">
        <source>%n dead letter(s) failed to deserialize in the last 15 min</source>
        <translation>
            <numerusform>%n Dead Letter in den letzten 15 min nicht deserialisierbar</numerusform>
            <numerusform>%n Dead Letters in den letzten 15 min nicht deserialisierbar</numerusform>
        </translation>
    </message>
    <message>
        <source>Are schema / deserialization failures handled?</source>
        <translation>Werden Schema- und Deserialisierungsfehler behandelt?</translation>
    </message>
    <message>
        <source>SLO: S = %1 s; pages above %2 s for 2 min</source>
        <translation>SLO: S = %1 s; Alarm über %2 s für 2 min</translation>
    </message>
    <message>
        <source>, p95 over 15 min %1 s</source>
        <translation>, p95 über 15 min %1 s</translation>
    </message>
    <message>
        <source>%1 keyed by %2; retention and in-flight behaviour not stated</source>
        <translation>%1 mit Schlüssel %2; Aufbewahrung und Verhalten während der Bearbeitung nicht angegeben</translation>
    </message>
    <message>
        <source>Idempotency storage: the unique key, its retention, and what happens while a record is still in flight?</source>
        <translation>Idempotenzspeicher: der eindeutige Schlüssel, seine Aufbewahrung, und was passiert, solange ein Eintrag noch in Bearbeitung ist?</translation>
    </message>
    <message>
        <source>topics keep %1; the inbox keeps %2</source>
        <translation>Topics halten %1; die Inbox hält %2</translation>
    </message>
    <message>
        <source>topics keep %1; inbox retention not stated (review: inboxRetention)</source>
        <translation>Topics halten %1; Aufbewahrung der Inbox nicht angegeben (review: inboxRetention)</translation>
    </message>
    <message>
        <source>Does the inbox keep keys as long as the topic&apos;s retention (replay window)?</source>
        <translation>Hält die Inbox Schlüssel so lange wie die Aufbewahrung des Topics (Replay-Fenster)?</translation>
    </message>
    <message>
        <source>Ack timing: which side effects must complete before the ack?</source>
        <translation>Ack-Zeitpunkt: welche Nebenwirkungen müssen vor dem Ack abgeschlossen sein?</translation>
    </message>
    <message>
        <source>berth replay request → dry run (predicted no-op rate) → approval by a second database role; the expected no-op rate is not stated</source>
        <translation>berth replay request → Probelauf (vorhergesagte No-op-Quote) → Freigabe durch eine zweite Datenbankrolle; die erwartete No-op-Quote ist nicht angegeben</translation>
    </message>
    <message>
        <source>Replay proof: the command, the expected no-op rate, and who approves it?</source>
        <translation>Replay-Nachweis: der Befehl, die erwartete No-op-Quote, und wer gibt frei?</translation>
    </message>
    <message numerus="yes">
        <source>%n failed inbox row(s) at retry.maxAttempts (%1): retries exhausted</source>
        <translation>
            <numerusform>%n fehlgeschlagene Inbox-Zeile bei retry.maxAttempts (%1): Wiederholungen erschöpft</numerusform>
            <numerusform>%n fehlgeschlagene Inbox-Zeilen bei retry.maxAttempts (%1): Wiederholungen erschöpft</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DeliverySemantics</name>
    <message>
        <source>offsetCommit.timing is not stated</source>
        <translation>offsetCommit.timing ist nicht angegeben</translation>
    </message>
    <message>
        <source>offsetCommit.timing %1: a crash after the commit and before the work loses the message</source>
        <translation>offsetCommit.timing %1: ein Absturz nach dem Commit und vor der Arbeit verliert die Nachricht</translation>
    </message>
    <message>
        <source>offsetCommit.timing %1 with no idempotency strategy: redeliveries are applied again</source>
        <translation>offsetCommit.timing %1 ohne Idempotenzstrategie: erneute Zustellungen werden noch einmal angewendet</translation>
    </message>
    <message>
        <source>offsetCommit.timing %1 and idempotency %2, but the external provider does not deduplicate: its side effect can repeat</source>
        <translation>offsetCommit.timing %1 und Idempotenz %2, aber der externe Anbieter dedupliziert nicht: seine Nebenwirkung kann sich wiederholen</translation>
    </message>
    <message>
        <source>offsetCommit.timing %1 and idempotency %2</source>
        <translation>offsetCommit.timing %1 und Idempotenz %2</translation>
    </message>
    <message numerus="yes">
        <source>the policy says %1; %n record(s) were committed past and never processed or dead-lettered (possible loss): %2</source>
        <translation>
            <numerusform>die Richtlinie sagt %1; %n Datensatz lag hinter dem Commit und wurde weder verarbeitet noch in die DLQ gestellt (möglicher Verlust): %2</numerusform>
            <numerusform>die Richtlinie sagt %1; %n Datensätze lagen hinter dem Commit und wurden weder verarbeitet noch in die DLQ gestellt (möglicher Verlust): %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>the policy says effectively-once; %n repeated delivery(ies) reached a consumer with no inbox to absorb them</source>
        <translation>
            <numerusform>die Richtlinie sagt effectively-once; %n wiederholte Zustellung erreichte einen Consumer ohne Inbox, die sie abfängt</numerusform>
            <numerusform>die Richtlinie sagt effectively-once; %n wiederholte Zustellungen erreichten einen Consumer ohne Inbox, die sie abfängt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>the policy says effectively-once and per-key ordering; %n order break(s) were seen</source>
        <translation>
            <numerusform>die Richtlinie sagt effectively-once und Reihenfolge pro Schlüssel; %n Reihenfolgebruch wurde gesehen</numerusform>
            <numerusform>die Richtlinie sagt effectively-once und Reihenfolge pro Schlüssel; %n Reihenfolgebrüche wurden gesehen</numerusform>
        </translation>
    </message>
    <message>
        <source>accounting shows %1 (policy: %2)</source>
        <translation>die Bilanz zeigt %1 (Richtlinie: %2)</translation>
    </message>
</context>
<context>
    <name>DeskSummary</name>
    <message numerus="yes">
        <source>%n group(s) behind their lag SLO</source>
        <translation>
            <numerusform>%n Gruppe hinter ihrem Lag-SLO</numerusform>
            <numerusform>%n Gruppen hinter ihrem Lag-SLO</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>all %n group(s) within their lag SLO</source>
        <translation>
            <numerusform>%n Gruppe innerhalb ihres Lag-SLO</numerusform>
            <numerusform>alle %n Gruppen innerhalb ihres Lag-SLO</numerusform>
        </translation>
    </message>
    <message>
        <source>since %1</source>
        <translation>seit %1</translation>
    </message>
    <message numerus="yes">
        <source>in the last %n min</source>
        <translation>
            <numerusform>in der letzten %n min</numerusform>
            <numerusform>in den letzten %n min</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %n dead letter(s) %2</source>
        <translation>
            <numerusform>%1: %n Dead Letter %2</numerusform>
            <numerusform>%1: %n Dead Letters %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n parked row(s)</source>
        <translation>
            <numerusform>%n geparkte Zeile</numerusform>
            <numerusform>%n geparkte Zeilen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n alert(s) firing</source>
        <translation>
            <numerusform>%n Alarm aktiv</numerusform>
            <numerusform>%n Alarme aktiv</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %n parked row(s)</source>
        <translation>
            <numerusform>%1: %n geparkte Zeile</numerusform>
            <numerusform>%1: %n geparkte Zeilen</numerusform>
        </translation>
    </message>
    <message>
        <source>(%1 in all inboxes)</source>
        <translation>(%1 in allen Inboxen)</translation>
    </message>
</context>
<context>
    <name>DisplayFormat</name>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 h %2 min</translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <translation>%1 d %2 h</translation>
    </message>
    <message>
        <source>caught up</source>
        <translation>aufgeholt</translation>
    </message>
    <message>
        <source>keeping up</source>
        <translation>hält Schritt</translation>
    </message>
    <message>
        <source>not measured yet</source>
        <translation>noch nicht gemessen</translation>
    </message>
    <message>
        <source>not clearing</source>
        <translation>baut nicht ab</translation>
    </message>
    <message>
        <source>no progress</source>
        <translation>kein Fortschritt</translation>
    </message>
</context>
<context>
    <name>DlqBrowserModel</name>
    <message>
        <source>(null)</source>
        <translation>(null)</translation>
    </message>
    <message>
        <source>tombstone</source>
        <translation>Tombstone</translation>
    </message>
    <message>
        <source>Time (UTC)</source>
        <translation>Zeit (UTC)</translation>
    </message>
    <message>
        <source>Partition / offset</source>
        <translation>Partition / Offset</translation>
    </message>
    <message>
        <source>Original record</source>
        <translation>Ursprünglicher Record</translation>
    </message>
    <message>
        <source>Consumer</source>
        <translation>Consumer</translation>
    </message>
    <message>
        <source>Exception</source>
        <translation>Exception</translation>
    </message>
    <message>
        <source>Cause</source>
        <translation>Ursache</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>Versuche</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Dialect</source>
        <translation>Dialekt</translation>
    </message>
    <message>
        <source>Inbox status</source>
        <translation>Inbox-Status</translation>
    </message>
</context>
<context>
    <name>DlqBrowserView</name>
    <message>
        <source>Scan</source>
        <translation>Scannen</translation>
    </message>
    <message>
        <source>Live tail</source>
        <translation>Live verfolgen</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>All groups</source>
        <translation>Alle Gruppen</translation>
    </message>
    <message>
        <source>Dead-letter topic to scan</source>
        <translation>Zu scannendes Dead-Letter-Topic</translation>
    </message>
    <message>
        <source>all partitions</source>
        <translation>alle Partitionen</translation>
    </message>
    <message>
        <source>Partitions to read: empty for all, or e.g. 0,2,5-7</source>
        <translation>Zu lesende Partitionen: leer für alle, oder z. B. 0,2,5-7</translation>
    </message>
    <message>
        <source>From the beginning</source>
        <translation>Vom Anfang</translation>
    </message>
    <message>
        <source>Last N per partition</source>
        <translation>Letzte N pro Partition</translation>
    </message>
    <message>
        <source>From offset</source>
        <translation>Ab Offset</translation>
    </message>
    <message>
        <source>From time</source>
        <translation>Ab Zeitpunkt</translation>
    </message>
    <message>
        <source>From the end (new records only)</source>
        <translation>Ab Ende (nur neue Records)</translation>
    </message>
    <message>
        <source>UTC</source>
        <translation>UTC</translation>
    </message>
    <message>
        <source>Read up to the end offsets as they are now</source>
        <translation>Bis zu den aktuellen End-Offsets lesen</translation>
    </message>
    <message>
        <source>Read and keep reading new dead letters as they arrive</source>
        <translation>Lesen und neu eintreffende Dead Letters fortlaufend mitlesen</translation>
    </message>
    <message>
        <source>Filter: key, reason, exception, idempotency key</source>
        <translation>Filter: Schlüssel, Grund, Exception, Idempotenzschlüssel</translation>
    </message>
    <message>
        <source>Filter by key, reason, exception or idempotency key (Ctrl+F)</source>
        <translation>Nach Schlüssel, Grund, Exception oder Idempotenzschlüssel filtern (Strg+F)</translation>
    </message>
    <message>
        <source>Topic</source>
        <translation>Topic</translation>
    </message>
    <message>
        <source>Failure groups</source>
        <translation>Fehlergruppen</translation>
    </message>
    <message>
        <source>E&amp;xport…</source>
        <translation>E&amp;xportieren …</translation>
    </message>
    <message>
        <source>Write the rows as shown (filtered and sorted) to CSV or JSON lines</source>
        <translation>Die Zeilen wie angezeigt (gefiltert und sortiert) als CSV oder JSON Lines schreiben</translation>
    </message>
    <message>
        <source>Export dead letters</source>
        <translation>Dead Letters exportieren</translation>
    </message>
    <message>
        <source>CSV (*.csv);;JSON lines (*.jsonl)</source>
        <translation>CSV (*.csv);;JSON Lines (*.jsonl)</translation>
    </message>
    <message>
        <source>Filtering…</source>
        <translation>Wird gefiltert …</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message>
        <source>Exporting to %1…</source>
        <translation>Export nach %1 …</translation>
    </message>
    <message numerus="yes">
        <source>Exported %n dead letter(s) to %1</source>
        <translation>
            <numerusform>%n Dead Letter nach %1 exportiert</numerusform>
            <numerusform>%n Dead Letters nach %1 exportiert</numerusform>
        </translation>
    </message>
    <message>
        <source>Export to %1 failed: %2</source>
        <translation>Export nach %1 fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>No cluster to read from: connect first.</source>
        <translation>Kein Cluster zum Lesen: Bitte zuerst verbinden.</translation>
    </message>
    <message>
        <source>Choose a topic to scan.</source>
        <translation>Wählen Sie ein Topic zum Scannen.</translation>
    </message>
    <message>
        <source>Scanning %1…</source>
        <translation>%1 wird gescannt …</translation>
    </message>
    <message numerus="yes">
        <source>%n message(s) failed %1 times or more: poison</source>
        <translation>
            <numerusform>%n Nachricht ist %1-mal oder öfter fehlgeschlagen: Poison</numerusform>
            <numerusform>%n Nachrichten sind %1-mal oder öfter fehlgeschlagen: Poison</numerusform>
        </translation>
    </message>
    <message>
        <source>The scan stopped: %1</source>
        <translation>Scan angehalten: %1</translation>
    </message>
    <message>
        <source>Cancelled after %1 records.</source>
        <translation>Nach %1 Records abgebrochen.</translation>
    </message>
    <message>
        <source>Scanned %1 records in %2.</source>
        <translation>%1 Records in %2 gescannt.</translation>
    </message>
    <message>
        <source>%1 of %2 records</source>
        <translation>%1 von %2 Records</translation>
    </message>
    <message>
        <source>%1 records</source>
        <translation>%1 Records</translation>
    </message>
    <message>
        <source>%1/s</source>
        <translation>%1/s</translation>
    </message>
    <message>
        <source>live: waiting for new dead letters</source>
        <translation>live: warte auf neue Dead Letters</translation>
    </message>
    <message>
        <source>ETA %1</source>
        <translation>Restzeit %1</translation>
    </message>
    <message>
        <source>problem: %1</source>
        <translation>Problem: %1</translation>
    </message>
    <message>
        <source>&amp;Request replay / skip…</source>
        <translation>Replay / Skip anf&amp;ordern …</translation>
    </message>
    <message>
        <source>File a replay, edit, or skip request for the selected dead letters (Ctrl+R)</source>
        <translation>Eine Replay-, Bearbeitungs- oder Skip-Anfrage für die ausgewählten Dead Letters stellen (Strg+R)</translation>
    </message>
    <message>
        <source>Select one or more dead letters to request a replay or skip.</source>
        <translation>Wählen Sie einen oder mehrere Dead Letters, um ein Replay oder einen Skip anzufordern.</translation>
    </message>
    <message>
        <source>Cannot read the partitions: %1; use e.g. 0,2,5-7</source>
        <translation>Partitionsangabe nicht lesbar: %1; z. B. 0,2,5-7 verwenden</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Anhalten</translation>
    </message>
    <message>
        <source>Field filter: $.customer.id == &quot;c-42&quot; and $.amount &gt; 100 (Enter)</source>
        <translation>Feldfilter: $.customer.id == &quot;c-42&quot; and $.amount &gt; 100 (Eingabe)</translation>
    </message>
    <message>
        <source>Filter by decoded payload fields (Ctrl+Shift+F, Enter to run): paths $.a.b[0].c; == != &lt; &lt;= &gt; &gt;= contains exists; and, or, parentheses. Payloads are read back from the brokers; masked fields cannot be searched by value.</source>
        <translation>Nach Feldern der dekodierten Nutzdaten filtern (Strg+Umschalt+F, Eingabe startet): Pfade $.a.b[0].c; == != &lt; &lt;= &gt; &gt;= contains exists; and, or, Klammern. Die Nutzdaten werden von den Brokern neu gelesen; maskierte Felder können nicht nach Wert durchsucht werden.</translation>
    </message>
    <message>
        <source>Stop the field filter</source>
        <translation>Feldfilter anhalten</translation>
    </message>
    <message>
        <source>Reading payloads: %1 of %2</source>
        <translation>Nutzdaten werden gelesen: %1 von %2</translation>
    </message>
    <message>
        <source>Field filter not applied: %1</source>
        <translation>Feldfilter nicht angewendet: %1</translation>
    </message>
    <message>
        <source>%1 of %2 payloads pass (%3 not decoded)</source>
        <translation>%1 von %2 Nutzdaten passen (%3 nicht dekodiert)</translation>
    </message>
    <message>
        <source>%1 of %2 payloads pass</source>
        <translation>%1 von %2 Nutzdaten passen</translation>
    </message>
    <message>
        <source>Scan a dead-letter topic first: the field filter reads its entries&apos; payloads</source>
        <translation>Zuerst ein Dead-Letter-Topic scannen: Der Feldfilter liest die Nutzdaten seiner Einträge</translation>
    </message>
    <message>
        <source>Reading payloads…</source>
        <translation>Nutzdaten werden gelesen …</translation>
    </message>
    <message>
        <source>Filter by payload field</source>
        <translation>Nach Payload-Feld filtern</translation>
    </message>
</context>
<context>
    <name>DlqExport</name>
    <message>
        <source>Nothing to export: no scan has run.</source>
        <translation>Nichts zu exportieren: Es wurde noch kein Scan ausgeführt.</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
</context>
<context>
    <name>DlqInboxColumn</name>
    <message>
        <source>looking up…</source>
        <translation>wird nachgeschlagen …</translation>
    </message>
    <message>
        <source>look-up failed</source>
        <translation>Abfrage fehlgeschlagen</translation>
    </message>
    <message>
        <source>not in inbox</source>
        <translation>nicht in der Inbox</translation>
    </message>
    <message>
        <source>This dead letter carries no idempotency key.</source>
        <translation>Dieser Dead Letter trägt keinen Idempotenzschlüssel.</translation>
    </message>
    <message>
        <source>No inbox database is configured.</source>
        <translation>Keine Inbox-Datenbank konfiguriert.</translation>
    </message>
    <message>
        <source>Asking the inbox database…</source>
        <translation>Inbox-Datenbank wird abgefragt …</translation>
    </message>
    <message>
        <source>The inbox database did not answer: %1</source>
        <translation>Die Inbox-Datenbank hat nicht geantwortet: %1</translation>
    </message>
    <message>
        <source>%1 has this key as %2 (state: %3).</source>
        <translation>%1 führt diesen Schlüssel als %2 (Zustand: %3).</translation>
    </message>
    <message>
        <source>A replay would be a no-op.</source>
        <translation>Ein Replay hätte keine Wirkung.</translation>
    </message>
    <message>
        <source>no consumer</source>
        <translation>kein Consumer</translation>
    </message>
    <message>
        <source>No inbox is asked: the record names no mapped consumer and no mapped policy consumer has this DLQ topic (another consumer&apos;s inbox says nothing about this one).</source>
        <translation>Keine Inbox wird gefragt: Der Datensatz nennt keinen zugeordneten Consumer, und kein zugeordneter Consumer der Richtlinie hat dieses DLQ-Topic (die Inbox eines anderen Consumers sagt über diesen nichts aus).</translation>
    </message>
    <message>
        <source>The consumer&apos;s inbox table does not know this key: it never recorded it.</source>
        <translation>Die Inbox-Tabelle des Consumers kennt diesen Schlüssel nicht: Er hat ihn nie erfasst.</translation>
    </message>
</context>
<context>
    <name>DlqInspectorView</name>
    <message>
        <source>Show more</source>
        <translation>Mehr anzeigen</translation>
    </message>
    <message>
        <source>Copy as kcat command</source>
        <translation>Als kcat-Befehl kopieren</translation>
    </message>
    <message>
        <source>Export as JSON…</source>
        <translation>Als JSON exportieren …</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Raw (hex)</source>
        <translation>Roh (hex)</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>Übersicht</translation>
    </message>
    <message>
        <source>Headers</source>
        <translation>Header</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>Payload</source>
        <translation>Payload</translation>
    </message>
    <message>
        <source>Hex</source>
        <translation>Hex</translation>
    </message>
    <message>
        <source>Stack trace</source>
        <translation>Stacktrace</translation>
    </message>
    <message>
        <source>Select a dead letter to inspect it.</source>
        <translation>Wählen Sie einen Dead Letter aus, um ihn zu untersuchen.</translation>
    </message>
    <message>
        <source>%1 [%2] @ %3</source>
        <translation>%1 [%2] @ %3</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Dialect</source>
        <translation>Dialekt</translation>
    </message>
    <message>
        <source>Original topic</source>
        <translation>Ursprüngliches Topic</translation>
    </message>
    <message>
        <source>Original partition</source>
        <translation>Ursprüngliche Partition</translation>
    </message>
    <message>
        <source>Original offset</source>
        <translation>Ursprünglicher Offset</translation>
    </message>
    <message>
        <source>Consumer</source>
        <translation>Consumer</translation>
    </message>
    <message>
        <source>Exception</source>
        <translation>Exception</translation>
    </message>
    <message>
        <source>Cause</source>
        <translation>Ursache</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>Versuche</translation>
    </message>
    <message>
        <source>Idempotency key</source>
        <translation>Idempotenzschlüssel</translation>
    </message>
    <message>
        <source>Fetching the record…</source>
        <translation>Record wird abgerufen …</translation>
    </message>
    <message>
        <source>Cannot show the record: %1</source>
        <translation>Record kann nicht angezeigt werden: %1</translation>
    </message>
    <message>
        <source>Record</source>
        <translation>Record</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message numerus="yes">
        <source>key %1, value %2, %n header(s)</source>
        <translation>
            <numerusform>Schlüssel %1, Wert %2, %n Header</numerusform>
            <numerusform>Schlüssel %1, Wert %2, %n Header</numerusform>
        </translation>
    </message>
    <message>
        <source>null</source>
        <translation>null</translation>
    </message>
    <message>
        <source>null (tombstone)</source>
        <translation>null (Tombstone)</translation>
    </message>
    <message>
        <source>Original record</source>
        <translation>Ursprünglicher Record</translation>
    </message>
    <message>
        <source>Original time</source>
        <translation>Ursprüngliche Zeit</translation>
    </message>
    <message>
        <source>Original fetch</source>
        <translation>Ursprünglicher Abruf</translation>
    </message>
    <message>
        <source>Consumer group</source>
        <translation>Consumer-Gruppe</translation>
    </message>
    <message>
        <source>First failure</source>
        <translation>Erster Fehler</translation>
    </message>
    <message>
        <source>Last failure</source>
        <translation>Letzter Fehler</translation>
    </message>
    <message>
        <source>Schema version</source>
        <translation>Schemaversion</translation>
    </message>
    <message>
        <source>Correlation id</source>
        <translation>Korrelations-ID</translation>
    </message>
    <message>
        <source>Connector</source>
        <translation>Connector</translation>
    </message>
    <message>
        <source>%1 task %2</source>
        <translation>%1 Task %2</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>Phase</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Hinweis</translation>
    </message>
    <message>
        <source>(null)</source>
        <translation>(null)</translation>
    </message>
    <message numerus="yes">
        <source>(binary, %n byte(s))</source>
        <translation>
            <numerusform>(binär, %n Byte)</numerusform>
            <numerusform>(binär, %n Bytes)</numerusform>
        </translation>
    </message>
    <message>
        <source>(null key)</source>
        <translation>(Schlüssel null)</translation>
    </message>
    <message>
        <source>(no stack trace in the headers)</source>
        <translation>(kein Stacktrace in den Headern)</translation>
    </message>
    <message>
        <source>Showing the first %1 of %2.</source>
        <translation>Die ersten %1 von %2 werden angezeigt.</translation>
    </message>
    <message>
        <source>The record has not been fetched.</source>
        <translation>Der Record wurde nicht abgerufen.</translation>
    </message>
    <message>
        <source>Export record as JSON</source>
        <translation>Record als JSON exportieren</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>Export fehlgeschlagen</translation>
    </message>
    <message>
        <source>Reveal masked values…</source>
        <translation>Maskierte Werte aufdecken…</translation>
    </message>
    <message>
        <source>Reveal masked values</source>
        <translation>Maskierte Werte aufdecken</translation>
    </message>
    <message>
        <source>Why do you need to see %1? The audit log records who revealed which fields of this record, and the reason.</source>
        <translation>Warum müssen Sie %1 sehen? Das Audit-Protokoll hält fest, wer welche Felder dieses Datensatzes aufgedeckt hat, und den Grund.</translation>
    </message>
    <message>
        <source>Revealed: the audit log records this.</source>
        <translation>Aufgedeckt: Das Audit-Protokoll hält dies fest.</translation>
    </message>
    <message>
        <source>Not revealed: %1</source>
        <translation>Nicht aufgedeckt: %1</translation>
    </message>
    <message>
        <source>Copied to the clipboard: %1</source>
        <translation>In die Zwischenablage kopiert: %1</translation>
    </message>
    <message>
        <source>Replayed by Berth</source>
        <translation>Replay durch Berth</translation>
    </message>
    <message>
        <source>request %1, item %2, from %3; replay number %4</source>
        <translation>Antrag %1, Element %2, aus %3; Replay Nummer %4</translation>
    </message>
</context>
<context>
    <name>DlqScanner</name>
    <message>
        <source>the delivery policy is still being read: its masking applies to the filter</source>
        <translation>die Zustellrichtlinie wird noch gelesen: ihre Maskierung gilt auch für den Filter</translation>
    </message>
    <message>
        <source>no field filter</source>
        <translation>kein Feldfilter</translation>
    </message>
</context>
<context>
    <name>FailureGroupModel</name>
    <message>
        <source>%1 records
Exception: %2
Cause: %3
Pattern: %4
Example: %5</source>
        <translation>%1 Records
Exception: %2
Ursache: %3
Muster: %4
Beispiel: %5</translation>
    </message>
    <message numerus="yes">
        <source>%n message(s) failed %1 times or more (poison)</source>
        <translation>
            <numerusform>%n Nachricht ist %1-mal oder öfter fehlgeschlagen (Poison)</numerusform>
            <numerusform>%n Nachrichten sind %1-mal oder öfter fehlgeschlagen (Poison)</numerusform>
        </translation>
    </message>
    <message>
        <source>Records</source>
        <translation>Records</translation>
    </message>
    <message>
        <source>Exception</source>
        <translation>Exception</translation>
    </message>
    <message>
        <source>Cause</source>
        <translation>Ursache</translation>
    </message>
    <message>
        <source>Reason pattern</source>
        <translation>Grund (Muster)</translation>
    </message>
    <message>
        <source>First seen (UTC)</source>
        <translation>Zuerst gesehen (UTC)</translation>
    </message>
    <message>
        <source>Last seen (UTC)</source>
        <translation>Zuletzt gesehen (UTC)</translation>
    </message>
    <message>
        <source>Last %1 min</source>
        <translation>Letzte %1 min</translation>
    </message>
    <message>
        <source>Poison</source>
        <translation>Poison</translation>
    </message>
</context>
<context>
    <name>GroupLagModel</name>
    <message>
        <source>Group</source>
        <translation>Gruppe</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Lag (msgs)</source>
        <translation>Lag (Nachr.)</translation>
    </message>
    <message>
        <source>Max time lag</source>
        <translation>Max. Zeit-Lag</translation>
    </message>
    <message>
        <source>Time to clear</source>
        <translation>Zeit bis Abbau</translation>
    </message>
    <message>
        <source>Topics</source>
        <translation>Topics</translation>
    </message>
    <message>
        <source>Partitions</source>
        <translation>Partitionen</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>%1 (default)</source>
        <translation>%1 (Standard)</translation>
    </message>
    <message>
        <source>OK while the time lag is within the policy&apos;s lagSlo.maxLagSeconds.</source>
        <translation>OK, solange die Zeitverzögerung innerhalb von lagSlo.maxLagSeconds der Richtlinie liegt.</translation>
    </message>
    <message>
        <source>The policy states no lagSlo.maxLagSeconds for this group: the default applies.</source>
        <translation>Die Richtlinie nennt für diese Gruppe kein lagSlo.maxLagSeconds: Es gilt der Standardwert.</translation>
    </message>
    <message>
        <source>Lag SLO</source>
        <translation>Lag-SLO</translation>
    </message>
</context>
<context>
    <name>InboxBoardModel</name>
    <message>
        <source>All consumers</source>
        <translation>Alle Consumer</translation>
    </message>
    <message>
        <source>(whole table)</source>
        <translation>(ganze Tabelle)</translation>
    </message>
    <message>
        <source>Statuses the mapping does not know: %1</source>
        <translation>Statuswerte, die die Zuordnung nicht kennt: %1</translation>
    </message>
    <message>
        <source>Consumer</source>
        <translation>Consumer</translation>
    </message>
    <message>
        <source>In progress</source>
        <translation>In Arbeit</translation>
    </message>
    <message>
        <source>Completed</source>
        <translation>Erledigt</translation>
    </message>
    <message>
        <source>Failed (retryable)</source>
        <translation>Fehler (wiederholbar)</translation>
    </message>
    <message>
        <source>Failed (terminal)</source>
        <translation>Fehler (endgültig)</translation>
    </message>
    <message>
        <source>Parked</source>
        <translation>Geparkt</translation>
    </message>
    <message>
        <source>Skipped</source>
        <translation>Übersprungen</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>Unbekannt</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>Gesamt</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 h %2 min</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 h</translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <translation>%1 d %2 h</translation>
    </message>
    <message>
        <source>%1 d</source>
        <translation>%1 d</translation>
    </message>
    <message>
        <source>Not read yet.</source>
        <translation>Noch nicht gelesen.</translation>
    </message>
    <message>
        <source>Could not read %1: %2</source>
        <translation>%1 konnte nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>%1: %2 rows, read at %3 (database clock, UTC) in %4 ms</source>
        <translation>%1: %2 Zeilen, gelesen um %3 (Datenbankuhr, UTC) in %4 ms</translation>
    </message>
    <message>
        <source>No in-progress row is older than %1.</source>
        <translation>Keine Zeile in Bearbeitung ist älter als %1.</translation>
    </message>
    <message numerus="yes">
        <source>Oldest stuck: %1 (%2) untouched for %3; %n row(s) in progress for longer than %4.</source>
        <translation>
            <numerusform>Älteste hängende: %1 (%2) seit %3 unverändert; %n Zeile länger als %4 in Bearbeitung.</numerusform>
            <numerusform>Älteste hängende: %1 (%2) seit %3 unverändert; %n Zeilen länger als %4 in Bearbeitung.</numerusform>
        </translation>
    </message>
    <message>
        <source>No outbox is mapped for this inbox.</source>
        <translation>Dieser Inbox ist keine Outbox zugeordnet.</translation>
    </message>
    <message>
        <source>Outbox: %1</source>
        <translation>Outbox: %1</translation>
    </message>
    <message>
        <source>Redelivered: %1 of %2 rows (%3 %) took more than one attempt.</source>
        <translation>Neu zugestellt: %1 von %2 Zeilen (%3 %) brauchten mehr als einen Versuch.</translation>
    </message>
    <message>
        <source>%1 more per minute since the previous reading.</source>
        <translation>%1 mehr pro Minute seit der vorigen Messung.</translation>
    </message>
    <message>
        <source>Missing indexes: the board&apos;s queries scan the whole table without them.</source>
        <translation>Fehlende Indizes: Ohne sie durchsuchen die Abfragen der Übersicht die ganze Tabelle.</translation>
    </message>
    <message>
        <source>about %1</source>
        <translation>etwa %1</translation>
    </message>
    <message>
        <source>Estimated from the table&apos;s statistics (the table is too large to count this state on every refresh); every other state is counted exactly.</source>
        <translation>Aus der Statistik der Tabelle geschätzt (die Tabelle ist zu groß, um diesen Zustand bei jeder Aktualisierung zu zählen); alle anderen Zustände werden exakt gezählt.</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Outbox %1: nothing pending at %2 UTC.</source>
        <translation>Outbox %1: um %2 UTC nichts ausstehend.</translation>
    </message>
    <message>
        <source>Outbox %1: %2 pending at %3 UTC, oldest waiting %4.</source>
        <translation>Outbox %1: um %3 UTC %2 ausstehend, älteste wartet seit %4.</translation>
    </message>
    <message>
        <source>%1 (%2 exhausted)</source>
        <translation>%1 (%2 erschöpft)</translation>
    </message>
    <message numerus="yes">
        <source>%n row(s) reached retry.maxAttempts (%1 attempts): retries exhausted, dead-lettered and not taken again until replayed. The others are retried.</source>
        <translation>
            <numerusform>%n Zeile hat retry.maxAttempts (%1 Versuche) erreicht: Wiederholungen erschöpft, in die DLQ geschrieben und erst nach einem Replay wieder verarbeitet. Die übrigen werden wiederholt.</numerusform>
            <numerusform>%n Zeilen haben retry.maxAttempts (%1 Versuche) erreicht: Wiederholungen erschöpft, in die DLQ geschrieben und erst nach einem Replay wieder verarbeitet. Die übrigen werden wiederholt.</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (about %2 exhausted)</source>
        <translation>%1 (etwa %2 erschöpft)</translation>
    </message>
    <message numerus="yes">
        <source>About %n row(s) reached retry.maxAttempts (%1 attempts), estimated from each consumer&apos;s latest failed rows: the table is too large to read every one. An index on (consumer, status, attempts) makes the count exact.</source>
        <translation>
            <numerusform>Etwa %n Zeile hat retry.maxAttempts (%1 Versuche) erreicht, geschätzt aus den jüngsten fehlgeschlagenen Zeilen jedes Consumers: die Tabelle ist zu groß, um jede zu lesen. Ein Index auf (consumer, status, attempts) macht die Zahl exakt.</numerusform>
            <numerusform>Etwa %n Zeilen haben retry.maxAttempts (%1 Versuche) erreicht, geschätzt aus den jüngsten fehlgeschlagenen Zeilen jedes Consumers: die Tabelle ist zu groß, um jede zu lesen. Ein Index auf (consumer, status, attempts) macht die Zahl exakt.</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 — counted on one session, the second failed: %2</source>
        <translation>%1 — auf einer Sitzung gezählt, die zweite schlug fehl: %2</translation>
    </message>
</context>
<context>
    <name>InboxBoardView</name>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>Which inbox table to read, and how its status words map onto Berth&apos;s states</source>
        <translation>Welche Inbox-Tabelle gelesen wird und wie ihre Statuswerte auf die Zustände von Berth abgebildet werden</translation>
    </message>
    <message>
        <source>Delivery attempts per message</source>
        <translation>Zustellversuche pro Nachricht</translation>
    </message>
    <message>
        <source>Inbox rows (messages)</source>
        <translation>Inbox-Zeilen (Nachrichten)</translation>
    </message>
    <message>
        <source>This inbox table has no attempts column.</source>
        <translation>Diese Inbox-Tabelle hat keine Spalte für Versuche.</translation>
    </message>
    <message>
        <source>Rows</source>
        <translation>Zeilen</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>Inbox:</source>
        <translation>Inbox:</translation>
    </message>
    <message>
        <source>Attempts histogram</source>
        <translation>Histogramm der Versuche</translation>
    </message>
    <message>
        <source>Top errors (rows not completed)</source>
        <translation>Häufigste Fehler (nicht abgeschlossene Zeilen)</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>%1 wird gelesen …</translation>
    </message>
    <message>
        <source>This inbox table has no error column.</source>
        <translation>Diese Inbox-Tabelle hat keine Fehlerspalte.</translation>
    </message>
    <message>
        <source>No inbox is mapped. State each consumer&apos;s inbox in the policy file (deliverySemantics.consumers.&lt;name&gt;.inbox) or in the connection profile.</source>
        <translation>Keine Inbox zugeordnet. Geben Sie die Inbox jedes Consumers in der Richtliniendatei (deliverySemantics.consumers.&lt;name&gt;.inbox) oder im Verbindungsprofil an.</translation>
    </message>
    <message>
        <source>Inbox rows (estimated from a sample)</source>
        <translation>Inbox-Zeilen (aus einer Stichprobe geschätzt)</translation>
    </message>
    <message>
        <source>(a large table: from each consumer and state&apos;s latest rows)</source>
        <translation>(große Tabelle: aus den neuesten Zeilen je Consumer und Zustand)</translation>
    </message>
    <message>
        <source>Edit &amp;mappings…</source>
        <translation>&amp;Zuordnungen bearbeiten …</translation>
    </message>
    <message>
        <source>Map inbox and outbox tables in any database (saved to the connection profile)</source>
        <translation>Inbox- und Outbox-Tabellen in beliebigen Datenbanken zuordnen (im Verbindungsprofil gespeichert)</translation>
    </message>
    <message>
        <source>&amp;Reclaim stuck rows…</source>
        <translation>Hängende Zeilen &amp;zurückholen…</translation>
    </message>
    <message>
        <source>Release the consumer&apos;s rows in progress for longer than a threshold and replay their records, with a dry run, as a request another person approves</source>
        <translation>Die Zeilen des Consumers, die länger als eine Schwelle in Arbeit sind, freigeben und ihre Datensätze erneut senden, mit Probelauf, als Antrag, den eine andere Person genehmigt</translation>
    </message>
</context>
<context>
    <name>InboxMappingDialog</name>
    <message>
        <source>&amp;Message id / idempotency key:</source>
        <translation>&amp;Nachrichten-ID / Idempotenzschlüssel:</translation>
    </message>
    <message>
        <source>&amp;Status:</source>
        <translation>&amp;Status:</translation>
    </message>
    <message>
        <source>&amp;Updated:</source>
        <translation>&amp;Aktualisiert:</translation>
    </message>
    <message>
        <source>C&amp;onsumer or group:</source>
        <translation>C&amp;onsumer oder Gruppe:</translation>
    </message>
    <message>
        <source>&amp;First seen:</source>
        <translation>&amp;Erstmals gesehen:</translation>
    </message>
    <message>
        <source>&amp;Attempts:</source>
        <translation>&amp;Versuche:</translation>
    </message>
    <message>
        <source>&amp;Error:</source>
        <translation>&amp;Fehler:</translation>
    </message>
    <message>
        <source>&amp;Topic:</source>
        <translation>&amp;Topic:</translation>
    </message>
    <message>
        <source>Pa&amp;yload:</source>
        <translation>Pa&amp;yload:</translation>
    </message>
    <message>
        <source>— choose —</source>
        <translation>— auswählen —</translation>
    </message>
    <message>
        <source>— none —</source>
        <translation>— keine —</translation>
    </message>
    <message>
        <source>%1 — not in the table read</source>
        <translation>%1 — nicht in der gelesenen Tabelle</translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation>S&amp;toppen</translation>
    </message>
    <message>
        <source>Inbox mappings</source>
        <translation>Inbox-Zuordnungen</translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation>&amp;Neu</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>&amp;Entfernen</translation>
    </message>
    <message>
        <source>Mappings in this profile:</source>
        <translation>Zuordnungen in diesem Profil:</translation>
    </message>
    <message>
        <source>&amp;1 Table and columns</source>
        <translation>&amp;1 Tabelle und Spalten</translation>
    </message>
    <message>
        <source>&amp;2 Status words</source>
        <translation>&amp;2 Statuswerte</translation>
    </message>
    <message>
        <source>&amp;3 Outbox</source>
        <translation>&amp;3 Outbox</translation>
    </message>
    <message>
        <source>&amp;4 Preview</source>
        <translation>&amp;4 Vorschau</translation>
    </message>
    <message>
        <source>Copy as policy &amp;YAML</source>
        <translation>Als Richtlinien-&amp;YAML kopieren</translation>
    </message>
    <message>
        <source>The selected mapping as the policy file&apos;s inbox block; Berth never writes the policy file</source>
        <translation>Die gewählte Zuordnung als Inbox-Block der Richtliniendatei; Berth schreibt die Richtliniendatei nie</translation>
    </message>
    <message>
        <source>Stop the statements still running</source>
        <translation>Noch laufende Abfragen stoppen</translation>
    </message>
    <message>
        <source>new consumer</source>
        <translation>neuer Consumer</translation>
    </message>
    <message>
        <source>Copied “%1” as the policy file&apos;s inbox block. Paste it under deliverySemantics: consumers: in the policy; the policy&apos;s mapping then wins over the profile&apos;s.</source>
        <translation>„%1“ als Inbox-Block der Richtliniendatei kopiert. Unter deliverySemantics: consumers: in die Richtlinie einfügen; dann gilt die Zuordnung der Richtlinie vor der des Profils.</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>Gestoppt.</translation>
    </message>
    <message>
        <source>Words counted as Unknown: %1</source>
        <translation>Als Unbekannt gezählte Werte: %1</translation>
    </message>
    <message>
        <source>Preview read in %1 ms; nothing is saved until you press Save.</source>
        <translation>Vorschau in %1 ms gelesen; gespeichert wird erst mit Speichern.</translation>
    </message>
    <message>
        <source>The preview could not be read: %1</source>
        <translation>Die Vorschau konnte nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>the consumer (group) this inbox belongs to</source>
        <translation>der Consumer (die Gruppe), dem diese Inbox gehört</translation>
    </message>
    <message>
        <source>— start from a template —</source>
        <translation>— mit einer Vorlage beginnen —</translation>
    </message>
    <message>
        <source>Default database (the profile&apos;s)</source>
        <translation>Standarddatenbank (die des Profils)</translation>
    </message>
    <message>
        <source>A database of the profile, or a libpq conninfo / service=name (no password: the keychain or ~/.pgpass keeps it)</source>
        <translation>Eine Datenbank des Profils oder ein libpq-Conninfo / service=Name (ohne Passwort: Schlüsselbund oder ~/.pgpass bewahren es)</translation>
    </message>
    <message>
        <source>&amp;List tables</source>
        <translation>Tabellen &amp;auflisten</translation>
    </message>
    <message>
        <source>Filter tables</source>
        <translation>Tabellen filtern</translation>
    </message>
    <message>
        <source>Schema</source>
        <translation>Schema</translation>
    </message>
    <message>
        <source>Table</source>
        <translation>Tabelle</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Rows (estimate)</source>
        <translation>Zeilen (Schätzung)</translation>
    </message>
    <message>
        <source>With a consumer column: this consumer&apos;s value (its rows only). Without one: the consumer every row belongs to.</source>
        <translation>Mit Consumer-Spalte: der Wert dieses Consumers (nur seine Zeilen). Ohne: der Consumer, dem jede Zeile gehört.</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>&amp;Consumer:</source>
        <translation>&amp;Consumer:</translation>
    </message>
    <message>
        <source>Te&amp;mplate:</source>
        <translation>&amp;Vorlage:</translation>
    </message>
    <message>
        <source>&amp;Database:</source>
        <translation>&amp;Datenbank:</translation>
    </message>
    <message>
        <source>F&amp;ilter:</source>
        <translation>F&amp;ilter:</translation>
    </message>
    <message>
        <source>Consumer &amp;value:</source>
        <translation>Consumer-&amp;Wert:</translation>
    </message>
    <message>
        <source>Stuc&amp;k after:</source>
        <translation>&amp;Hängt nach:</translation>
    </message>
    <message>
        <source>Filled in from the template; discover the status words to check them against the table.</source>
        <translation>Aus der Vorlage ausgefüllt; Statuswerte ermitteln, um sie mit der Tabelle abzugleichen.</translation>
    </message>
    <message>
        <source>&amp;Discover status words</source>
        <translation>Statuswerte &amp;ermitteln</translation>
    </message>
    <message>
        <source>Word</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Rows</source>
        <translation>Zeilen</translation>
    </message>
    <message>
        <source>Berth state</source>
        <translation>Berth-Zustand</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Hinweis</translation>
    </message>
    <message>
        <source>What a skip writes; none: skipping is not offered</source>
        <translation>Was ein Überspringen schreibt; keiner: Überspringen wird nicht angeboten</translation>
    </message>
    <message>
        <source>What “release” writes (a status word, or delete); none: release is not offered</source>
        <translation>Was „Freigeben“ schreibt (ein Statuswert oder Löschen); keiner: Freigeben wird nicht angeboten</translation>
    </message>
    <message>
        <source>S&amp;kip writes:</source>
        <translation>Über&amp;springen schreibt:</translation>
    </message>
    <message>
        <source>&amp;Release writes:</source>
        <translation>&amp;Freigeben schreibt:</translation>
    </message>
    <message>
        <source>This consumer writes a transactional &amp;outbox in the same database</source>
        <translation>Dieser Consumer schreibt eine transaktionale &amp;Outbox in derselben Datenbank</translation>
    </message>
    <message>
        <source>Disco&amp;ver outbox words</source>
        <translation>Outbox-Werte er&amp;mitteln</translation>
    </message>
    <message>
        <source>Outbox &amp;table:</source>
        <translation>Outbox-&amp;Tabelle:</translation>
    </message>
    <message>
        <source>Outbox s&amp;tatus:</source>
        <translation>Outbox-S&amp;tatus:</translation>
    </message>
    <message>
        <source>Outbox c&amp;reated:</source>
        <translation>Outbox-&amp;Erstellt:</translation>
    </message>
    <message>
        <source>&amp;Pending word:</source>
        <translation>&amp;Wert für ausstehend:</translation>
    </message>
    <message>
        <source>Reading the outbox&apos;s columns…</source>
        <translation>Spalten der Outbox werden gelesen …</translation>
    </message>
    <message>
        <source>&amp;Preview the board</source>
        <translation>&amp;Vorschau der Übersicht</translation>
    </message>
    <message>
        <source>Reads the board this mapping would show, without saving it</source>
        <translation>Liest die Übersicht, die diese Zuordnung zeigen würde, ohne sie zu speichern</translation>
    </message>
    <message>
        <source>List the tables, then pick the inbox.</source>
        <translation>Tabellen auflisten, dann die Inbox wählen.</translation>
    </message>
    <message>
        <source>Table: %1</source>
        <translation>Tabelle: %1</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>%1 wird gelesen …</translation>
    </message>
    <message>
        <source>The database names a password: keep it in a database of the profile (the keychain) or ~/.pgpass, never in the mapping.</source>
        <translation>Die Datenbankangabe enthält ein Passwort: Es gehört in eine Datenbank des Profils (Schlüsselbund) oder in ~/.pgpass, nie in die Zuordnung.</translation>
    </message>
    <message>
        <source>“%1” cannot be saved yet: %2</source>
        <translation>„%1“ kann noch nicht gespeichert werden: %2</translation>
    </message>
    <message>
        <source>Choose a database first.</source>
        <translation>Zuerst eine Datenbank wählen.</translation>
    </message>
    <message>
        <source>Reading the catalogue…</source>
        <translation>Katalog wird gelesen …</translation>
    </message>
    <message>
        <source>Cannot list the tables: %1</source>
        <translation>Tabellen können nicht aufgelistet werden: %1</translation>
    </message>
    <message>
        <source>not analysed</source>
        <translation>nicht analysiert</translation>
    </message>
    <message numerus="yes">
        <source>%n table(s) and view(s) you may read; estimates from the catalogue.</source>
        <translation>
            <numerusform>%n lesbare Tabelle oder View; Schätzungen aus dem Katalog.</numerusform>
            <numerusform>%n lesbare Tabellen und Views; Schätzungen aus dem Katalog.</numerusform>
        </translation>
    </message>
    <message>
        <source>Table: %1 (%2)</source>
        <translation>Tabelle: %1 (%2)</translation>
    </message>
    <message>
        <source>Reading the columns of %1…</source>
        <translation>Spalten von %1 werden gelesen …</translation>
    </message>
    <message>
        <source>%1: %2, about %3 rows</source>
        <translation>%1: %2, etwa %3 Zeilen</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>Table: %1 (%2, about %3 rows)</source>
        <translation>Tabelle: %1 (%2, etwa %3 Zeilen)</translation>
    </message>
    <message>
        <source>A view is read-only: skip, delete and release will be refused.</source>
        <translation>Eine View ist schreibgeschützt: Überspringen, Löschen und Freigeben werden abgelehnt.</translation>
    </message>
    <message>
        <source>Columns suggested from their names and types; check each, then discover the status words.</source>
        <translation>Spalten nach Namen und Typen vorgeschlagen; jede prüfen, dann die Statuswerte ermitteln.</translation>
    </message>
    <message>
        <source>Pick the table and its status column first.</source>
        <translation>Zuerst die Tabelle und ihre Statusspalte wählen.</translation>
    </message>
    <message>
        <source>Discovering the status words of %1…</source>
        <translation>Statuswerte von %1 werden ermittelt …</translation>
    </message>
    <message>
        <source>Pick the outbox table and its status column first.</source>
        <translation>Zuerst die Outbox-Tabelle und ihre Statusspalte wählen.</translation>
    </message>
    <message>
        <source>Discovering the outbox&apos;s status words…</source>
        <translation>Statuswerte der Outbox werden ermittelt …</translation>
    </message>
    <message>
        <source>Cannot discover the status words: %1</source>
        <translation>Statuswerte können nicht ermittelt werden: %1</translation>
    </message>
    <message>
        <source>Words in the outbox: %1</source>
        <translation>Werte in der Outbox: %1</translation>
    </message>
    <message>
        <source>Found: %1.</source>
        <translation>Gefunden: %1.</translation>
    </message>
    <message>
        <source>Sampled, may miss rare words: %1.</source>
        <translation>Stichprobe, seltene Werte können fehlen: %1.</translation>
    </message>
    <message>
        <source>Each word has a guessed state: confirm or change it. Unknown words are counted apart on the board.</source>
        <translation>Jeder Wert hat einen vermuteten Zustand: bestätigen oder ändern. Unbekannte Werte werden in der Übersicht gesondert gezählt.</translation>
    </message>
    <message>
        <source>⚠ not seen in the table (a sample may miss it; it may be gone)</source>
        <translation>⚠ nicht in der Tabelle gesehen (eine Stichprobe kann ihn verfehlen; vielleicht entfallen)</translation>
    </message>
    <message>
        <source>⚠ rows without a status: always Unknown</source>
        <translation>⚠ Zeilen ohne Status: immer Unbekannt</translation>
    </message>
    <message>
        <source>⚠ Unknown: counted apart on the board until you map it</source>
        <translation>⚠ Unbekannt: in der Übersicht gesondert gezählt, bis Sie ihn zuordnen</translation>
    </message>
    <message>
        <source>guessed: confirm</source>
        <translation>vermutet: bestätigen</translation>
    </message>
    <message>
        <source>— none: skip not offered —</source>
        <translation>— keiner: Überspringen nicht angeboten —</translation>
    </message>
    <message>
        <source>— none: release not offered —</source>
        <translation>— keiner: Freigeben nicht angeboten —</translation>
    </message>
    <message>
        <source>delete the row</source>
        <translation>Zeile löschen</translation>
    </message>
    <message>
        <source>Not ready for a preview: %1</source>
        <translation>Noch nicht bereit für eine Vorschau: %1</translation>
    </message>
    <message>
        <source>Reading the board %1 would show…</source>
        <translation>Die Übersicht, die %1 zeigen würde, wird gelesen …</translation>
    </message>
    <message>
        <source>The policy file maps “%1” too; its mapping wins over this one.</source>
        <translation>Die Richtliniendatei ordnet „%1“ ebenfalls zu; ihre Zuordnung gilt vor dieser.</translation>
    </message>
</context>
<context>
    <name>InboxMappingDraft</name>
    <message>
        <source>Name the consumer this inbox belongs to.</source>
        <translation>Den Consumer nennen, dem diese Inbox gehört.</translation>
    </message>
    <message>
        <source>Another mapping is already named “%1”: one mapping per consumer.</source>
        <translation>Eine andere Zuordnung heißt bereits „%1“: eine Zuordnung pro Consumer.</translation>
    </message>
    <message>
        <source>Pick a table.</source>
        <translation>Eine Tabelle wählen.</translation>
    </message>
    <message>
        <source>Map at least one status word to a Berth state.</source>
        <translation>Mindestens einen Statuswert einem Berth-Zustand zuordnen.</translation>
    </message>
    <message>
        <source>The outbox needs its status and created columns and the pending word.</source>
        <translation>Die Outbox braucht ihre Status- und Erstellt-Spalten und den Wert für ausstehend.</translation>
    </message>
</context>
<context>
    <name>InboxRowsModel</name>
    <message>
        <source>Choose an inbox and the states to list.</source>
        <translation>Wählen Sie eine Inbox und die anzuzeigenden Zustände.</translation>
    </message>
    <message>
        <source>Could not read %1: %2</source>
        <translation>%1 konnte nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>%1: no rows in these states.</source>
        <translation>%1: keine Zeilen in diesen Zuständen.</translation>
    </message>
    <message>
        <source>%1: the %2 longest-waiting rows (more match; narrow the filter).</source>
        <translation>%1: die %2 am längsten wartenden Zeilen (weitere passen; Filter eingrenzen).</translation>
    </message>
    <message>
        <source>%1: %2 row(s), longest-waiting first.</source>
        <translation>%1: %2 Zeile(n), am längsten wartende zuerst.</translation>
    </message>
    <message>
        <source>%1 (Berth state: %2)</source>
        <translation>%1 (Berth-Zustand: %2)</translation>
    </message>
    <message>
        <source>Consumer</source>
        <translation>Consumer</translation>
    </message>
    <message>
        <source>Message id</source>
        <translation>Nachrichten-ID</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>Versuche</translation>
    </message>
    <message>
        <source>First seen (UTC)</source>
        <translation>Zuerst gesehen (UTC)</translation>
    </message>
    <message>
        <source>Updated (UTC)</source>
        <translation>Aktualisiert (UTC)</translation>
    </message>
    <message>
        <source>Last error</source>
        <translation>Letzter Fehler</translation>
    </message>
    <message>
        <source>Topic</source>
        <translation>Topic</translation>
    </message>
    <message>
        <source>The message ids of %1 are masked: the filter searched neither them nor those rows&apos; errors.</source>
        <translation>Die Nachrichten-IDs von %1 sind maskiert: Der Filter hat weder sie noch die Fehler dieser Zeilen durchsucht.</translation>
    </message>
    <message>
        <source>Filter by message id or error</source>
        <translation>Nach Nachrichten-ID oder Fehler filtern</translation>
    </message>
    <message>
        <source>Filter by message id or error (not the masked ids of %1)</source>
        <translation>Nach Nachrichten-ID oder Fehler filtern (nicht die maskierten IDs von %1)</translation>
    </message>
</context>
<context>
    <name>InboxRowsView</name>
    <message>
        <source>Parked</source>
        <translation>Geparkt</translation>
    </message>
    <message>
        <source>Failed terminal</source>
        <translation>Endgültig fehlgeschlagen</translation>
    </message>
    <message>
        <source>Failed retryable</source>
        <translation>Wiederholbar fehlgeschlagen</translation>
    </message>
    <message>
        <source>In progress</source>
        <translation>In Bearbeitung</translation>
    </message>
    <message>
        <source>Inbox:</source>
        <translation>Inbox:</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>%1 wird gelesen …</translation>
    </message>
    <message>
        <source>&amp;Skip / delete…</source>
        <translation>Übers&amp;pringen / löschen …</translation>
    </message>
    <message>
        <source>File a skip or delete request for the selected inbox rows (Ctrl+R)</source>
        <translation>Eine Skip- oder Löschanfrage für die ausgewählten Inbox-Zeilen stellen (Strg+R)</translation>
    </message>
    <message>
        <source>Select one or more rows to request a skip or delete.</source>
        <translation>Wählen Sie eine oder mehrere Zeilen, um einen Skip oder das Löschen anzufordern.</translation>
    </message>
    <message>
        <source>%1 is a view, not a table: skip and delete are refused. Map the table the view reads from to act on its rows.</source>
        <translation>%1 ist eine View, keine Tabelle: Überspringen und Löschen werden abgelehnt. Ordnen Sie die Tabelle zu, aus der die View liest, um auf ihre Zeilen zu wirken.</translation>
    </message>
</context>
<context>
    <name>LagChartView</name>
    <message>
        <source>All groups</source>
        <translation>Alle Gruppen</translation>
    </message>
    <message>
        <source>5 min</source>
        <translation>5 min</translation>
    </message>
    <message>
        <source>15 min</source>
        <translation>15 min</translation>
    </message>
    <message>
        <source>1 h</source>
        <translation>1 h</translation>
    </message>
    <message>
        <source>6 h</source>
        <translation>6 h</translation>
    </message>
    <message>
        <source>24 h</source>
        <translation>24 h</translation>
    </message>
    <message>
        <source>DLQ arrivals (messages/min)</source>
        <translation>DLQ-Eingänge (Nachrichten/min)</translation>
    </message>
    <message>
        <source>Duplicates (messages/min)</source>
        <translation>Duplikate (Nachrichten/min)</translation>
    </message>
    <message>
        <source>Inbox failures (failed or parked rows)</source>
        <translation>Inbox-Fehler (fehlgeschlagene oder geparkte Zeilen)</translation>
    </message>
    <message>
        <source>Failed or parked rows</source>
        <translation>Fehlgeschlagene oder geparkte Zeilen</translation>
    </message>
    <message>
        <source>Export PNG…</source>
        <translation>PNG exportieren …</translation>
    </message>
    <message>
        <source>Follow latest</source>
        <translation>Neueste verfolgen</translation>
    </message>
    <message>
        <source>Lag (messages)</source>
        <translation>Lag (Nachrichten)</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>Anzeigen:</translation>
    </message>
    <message>
        <source>Range:</source>
        <translation>Zeitraum:</translation>
    </message>
    <message>
        <source>Below:</source>
        <translation>Darunter:</translation>
    </message>
    <message>
        <source>Export chart</source>
        <translation>Diagramm exportieren</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG-Bilder (*.png)</translation>
    </message>
    <message>
        <source>Time (local)</source>
        <translation>Zeit (lokal)</translation>
    </message>
    <message>
        <source>Partitions of %1</source>
        <translation>Partitionen von %1</translation>
    </message>
    <message>
        <source>Time lag (s)</source>
        <translation>Zeit-Lag (s)</translation>
    </message>
    <message>
        <source>Lag (messages, each group&apos;s partitions summed)</source>
        <translation>Lag (Nachrichten, Partitionen jeder Gruppe summiert)</translation>
    </message>
    <message>
        <source>Lag (messages, a line per partition)</source>
        <translation>Lag (Nachrichten, eine Linie je Partition)</translation>
    </message>
    <message>
        <source>Time lag (seconds, each group&apos;s worst partition)</source>
        <translation>Zeit-Lag (Sekunden, schlechteste Partition jeder Gruppe)</translation>
    </message>
    <message>
        <source>Time lag (seconds, a line per partition)</source>
        <translation>Zeit-Lag (Sekunden, eine Linie je Partition)</translation>
    </message>
</context>
<context>
    <name>LagStatus</name>
    <message>
        <source>No samples yet.</source>
        <translation>Noch keine Messwerte.</translation>
    </message>
    <message>
        <source>Committed offset went back from %1 to %2: records will be processed again.</source>
        <translation>Committeter Offset ist von %1 auf %2 zurückgegangen: Records werden erneut verarbeitet.</translation>
    </message>
    <message>
        <source>Caught up.</source>
        <translation>Aufgeholt.</translation>
    </message>
    <message>
        <source>Lag %1 is within the allowed %2.</source>
        <translation>Lag %1 liegt innerhalb der zulässigen %2.</translation>
    </message>
    <message>
        <source>No progress for %1 s while %2 messages wait: the consumer appears stopped.</source>
        <translation>Seit %1 s kein Fortschritt, während %2 Nachrichten warten: Der Consumer scheint gestoppt.</translation>
    </message>
    <message>
        <source>Committed offset stuck at %1 for %2 s while %3 messages wait.</source>
        <translation>Committeter Offset steht seit %2 s bei %1, während %3 Nachrichten warten.</translation>
    </message>
    <message>
        <source>Consuming, but lag rose from %1 to %2 over the last %3 s.</source>
        <translation>Konsumiert, aber der Lag stieg in den letzten %3 s von %1 auf %2.</translation>
    </message>
    <message>
        <source>Consuming; lag %1 is not growing.</source>
        <translation>Konsumiert; Lag %1 wächst nicht.</translation>
    </message>
    <message>
        <source>%1 messages, %2 s behind: within the lag SLO of %3 s.</source>
        <translation>%1 Nachrichten, %2 s zurück: innerhalb des Lag-SLO von %3 s.</translation>
    </message>
    <message>
        <source>%1 messages, %2 s behind: within the lag SLO of %3 s (default).</source>
        <translation>%1 Nachrichten, %2 s zurück: innerhalb des Lag-SLO von %3 s (Vorgabe).</translation>
    </message>
</context>
<context>
    <name>LagTableModel</name>
    <message>
        <source>none</source>
        <translation>keiner</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>Committed offset equals the end offset: zero, exactly.</source>
        <translation>Committeter Offset gleich End-Offset: genau null.</translation>
    </message>
    <message>
        <source>When the next record to read was appended, interpolated over this partition&apos;s own end-offset history.</source>
        <translation>Zeitpunkt, zu dem der nächste zu lesende Record angehängt wurde, interpoliert aus dem End-Offset-Verlauf dieser Partition.</translation>
    </message>
    <message>
        <source>The timestamp of the record at the committed offset, read directly.</source>
        <translation>Der Zeitstempel des Records am committeten Offset, direkt gelesen.</translation>
    </message>
    <message>
        <source>Not measurable in this sample (no history yet, or the record could not be read).</source>
        <translation>In dieser Messung nicht bestimmbar (noch kein Verlauf, oder der Record war nicht lesbar).</translation>
    </message>
    <message>
        <source>The group has not committed on this partition: lag is counted from the log start (%1).</source>
        <translation>Die Gruppe hat auf dieser Partition nicht committet: Der Lag zählt ab Log-Anfang (%1).</translation>
    </message>
    <message>
        <source>Committed offset %1 is past the end offset %2 (topic recreated or truncated?): shown as 0.</source>
        <translation>Committeter Offset %1 liegt hinter dem End-Offset %2 (Topic neu angelegt oder gekürzt?): als 0 angezeigt.</translation>
    </message>
    <message>
        <source>The end offset could not be read in this sample.</source>
        <translation>Der End-Offset war in dieser Messung nicht lesbar.</translation>
    </message>
    <message>
        <source>%1 messages between committed offset and end offset</source>
        <translation>%1 Nachrichten zwischen committetem Offset und End-Offset</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>Gruppe</translation>
    </message>
    <message>
        <source>Topic</source>
        <translation>Topic</translation>
    </message>
    <message>
        <source>Partition</source>
        <translation>Partition</translation>
    </message>
    <message>
        <source>Committed</source>
        <translation>Committet</translation>
    </message>
    <message>
        <source>End offset</source>
        <translation>End-Offset</translation>
    </message>
    <message>
        <source>Lag (msgs)</source>
        <translation>Lag (Nachr.)</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Time lag</source>
        <translation>Zeit-Lag</translation>
    </message>
    <message>
        <source>Measured by</source>
        <translation>Gemessen über</translation>
    </message>
    <message>
        <source>Time to clear</source>
        <translation>Zeit bis Abbau</translation>
    </message>
    <message>
        <source>caught-up</source>
        <translation>aufgeholt</translation>
    </message>
    <message>
        <source>interpolated</source>
        <translation>interpoliert</translation>
    </message>
    <message>
        <source>peeked</source>
        <translation>direkt gelesen</translation>
    </message>
    <message>
        <source>caught-up (markers)</source>
        <translation>aufgeholt (Marker)</translation>
    </message>
    <message>
        <source>Caught up: only transaction markers follow the last record; the offsets they take are never handed to a consumer.</source>
        <translation>Aufgeholt: Nach dem letzten Datensatz folgen nur Transaktionsmarker; deren Offsets werden nie an einen Consumer ausgeliefert.</translation>
    </message>
</context>
<context>
    <name>LagView</name>
    <message>
        <source>Filter groups (Ctrl+F)</source>
        <translation>Gruppen filtern (Strg+F)</translation>
    </message>
    <message>
        <source> messages</source>
        <translation> Nachrichten</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>A partition lagging by at most this many messages is OK, whatever its commits do. None: each group&apos;s lag SLO alone decides (the Lag SLO column; %1 s where the policy states none). Applies from the next sample.</source>
        <translation>Eine Partition, die höchstens so viele Nachrichten zurückliegt, ist OK, was auch immer ihre Commits tun. Keine: Allein das Lag-SLO jeder Gruppe entscheidet (Spalte Lag-SLO; %1 s, wo die Richtlinie keines nennt). Gilt ab der nächsten Messung.</translation>
    </message>
    <message>
        <source>&amp;Message allowance:</source>
        <translation>&amp;Nachrichten-Toleranz:</translation>
    </message>
    <message>
        <source>Reset offsets…</source>
        <translation>Offsets zurücksetzen…</translation>
    </message>
    <message>
        <source>File a four-eyes request that moves the group&apos;s committed offsets, with a preview</source>
        <translation>Einen Vier-Augen-Antrag stellen, der die committeten Offsets der Gruppe verschiebt, mit Vorschau</translation>
    </message>
</context>
<context>
    <name>LogModel</name>
    <message>
        <source>debug</source>
        <translation>Debug</translation>
    </message>
    <message>
        <source>info</source>
        <translation>Info</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>Warnung</translation>
    </message>
    <message>
        <source>critical</source>
        <translation>Kritisch</translation>
    </message>
    <message>
        <source>fatal</source>
        <translation>Fatal</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Level</source>
        <translation>Stufe</translation>
    </message>
    <message>
        <source>Area</source>
        <translation>Bereich</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Meldung</translation>
    </message>
</context>
<context>
    <name>LogView</name>
    <message>
        <source>Area (berth.kafka, berth.inbox…)</source>
        <translation>Bereich (berth.kafka, berth.inbox …)</translation>
    </message>
    <message>
        <source>Level at least:</source>
        <translation>Mindeststufe:</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Connections</source>
        <translation>Verbindungen</translation>
    </message>
    <message>
        <source>Berth — delivery correctness console</source>
        <translation>Berth — Konsole für Zustellkorrektheit</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>Connection &amp;profiles…</source>
        <translation>Verbindungs&amp;profile …</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Refresh now</source>
        <translation>Jetzt &amp;aktualisieren</translation>
    </message>
    <message>
        <source>&amp;Filter…</source>
        <translation>&amp;Filtern …</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>&amp;Tastenkürzel</translation>
    </message>
    <message>
        <source>&amp;About Berth</source>
        <translation>Ü&amp;ber Berth</translation>
    </message>
    <message>
        <source>About Berth</source>
        <translation>Über Berth</translation>
    </message>
    <message>
        <source>Berth %1
A console for delivery correctness on Kafka: lag, dead letters, and audited, four-eyes remediation.</source>
        <translation>Berth %1
Eine Konsole für Zustellkorrektheit auf Kafka: Lag, Dead Letters und auditierte Fehlerbehebung nach dem Vier-Augen-Prinzip.</translation>
    </message>
    <message>
        <source>&amp;Next view</source>
        <translation>&amp;Nächste Ansicht</translation>
    </message>
    <message>
        <source>&amp;Previous view</source>
        <translation>&amp;Vorige Ansicht</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
</context>
<context>
    <name>PlannedRequestDialog</name>
    <message>
        <source>Group:</source>
        <translation>Gruppe:</translation>
    </message>
    <message>
        <source>&amp;Topic:</source>
        <translation>&amp;Topic:</translation>
    </message>
    <message>
        <source>The earliest offset</source>
        <translation>Den frühesten Offset</translation>
    </message>
    <message>
        <source>The latest offset (skip everything not yet processed)</source>
        <translation>Den neuesten Offset (alles noch nicht Verarbeitete überspringen)</translation>
    </message>
    <message>
        <source>A time (the first record at or after it)</source>
        <translation>Einen Zeitpunkt (der erste Datensatz ab diesem)</translation>
    </message>
    <message>
        <source>By N records from the committed offset</source>
        <translation>Um N Datensätze ab dem committeten Offset</translation>
    </message>
    <message>
        <source>Explicit offsets per partition</source>
        <translation>Explizite Offsets je Partition</translation>
    </message>
    <message>
        <source>&amp;Move to:</source>
        <translation>&amp;Verschieben auf:</translation>
    </message>
    <message>
        <source>Negative: back (records processed again); positive: forward (records skipped)</source>
        <translation>Negativ: zurück (Datensätze erneut verarbeitet); positiv: vor (Datensätze übersprungen)</translation>
    </message>
    <message>
        <source>PARTITION=OFFSET, e.g. 0=1200,2=880 (others stay where they are)</source>
        <translation>PARTITION=OFFSET, z. B. 0=1200,2=880 (andere bleiben, wo sie sind)</translation>
    </message>
    <message>
        <source>&amp;Value:</source>
        <translation>&amp;Wert:</translation>
    </message>
    <message>
        <source>Reset offsets of %1</source>
        <translation>Offsets von %1 zurücksetzen</translation>
    </message>
    <message>
        <source>Consumer:</source>
        <translation>Consumer:</translation>
    </message>
    <message>
        <source> min</source>
        <translation> min</translation>
    </message>
    <message>
        <source>the mapping&apos;s &quot;stuck after&quot;</source>
        <translation>„hängt nach“ der Zuordnung</translation>
    </message>
    <message>
        <source>In progress for &amp;over:</source>
        <translation>In Arbeit &amp;länger als:</translation>
    </message>
    <message>
        <source>the consumer&apos;s one topic in the policy</source>
        <translation>das eine Topic des Consumers in der Richtlinie</translation>
    </message>
    <message>
        <source>Reclaim stuck rows of %1</source>
        <translation>Hängende Zeilen von %1 zurückholen</translation>
    </message>
    <message>
        <source>Why, in words: the approver and the audit need to know</source>
        <translation>Warum, in Worten: Genehmiger und Audit müssen es wissen</translation>
    </message>
    <message>
        <source>R&amp;eason:</source>
        <translation>&amp;Grund:</translation>
    </message>
    <message>
        <source>T&amp;icket:</source>
        <translation>T&amp;icket:</translation>
    </message>
    <message>
        <source>&amp;Preview</source>
        <translation>&amp;Vorschau</translation>
    </message>
    <message>
        <source>Show what the request would do, before anything is filed (Ctrl+Return)</source>
        <translation>Zeigen, was der Antrag täte, bevor etwas gestellt wird (Strg+Eingabe)</translation>
    </message>
    <message>
        <source>Cance&amp;l preview</source>
        <translation>Vorschau abbre&amp;chen</translation>
    </message>
    <message>
        <source>Preview to see each partition&apos;s committed and target offsets, the records processed again or skipped, the expected no-op rate and the ordering notes.</source>
        <translation>Die Vorschau zeigt je Partition den committeten und den Ziel-Offset, die erneut verarbeiteten oder übersprungenen Datensätze, die erwartete No-op-Rate und die Hinweise zur Reihenfolge.</translation>
    </message>
    <message>
        <source>Preview to see the stuck rows, the records they are replayed from and which ones the group has committed past.</source>
        <translation>Die Vorschau zeigt die hängenden Zeilen, die Datensätze, aus denen sie erneut gesendet werden, und welche die Gruppe schon hinter sich committet hat.</translation>
    </message>
    <message>
        <source>&amp;Submit for approval</source>
        <translation>Zur Genehmigung &amp;einreichen</translation>
    </message>
    <message>
        <source>The inputs changed: preview again before submitting.</source>
        <translation>Die Eingaben haben sich geändert: vor dem Einreichen erneut Vorschau anzeigen.</translation>
    </message>
    <message>
        <source>Name the topic whose offsets move.</source>
        <translation>Das Topic angeben, dessen Offsets verschoben werden.</translation>
    </message>
    <message>
        <source>Reading the group&apos;s offsets and the records, looking keys up in the inbox…</source>
        <translation>Offsets der Gruppe und Datensätze werden gelesen, Schlüssel in der Inbox nachgeschlagen…</translation>
    </message>
    <message>
        <source>This request cannot be submitted: %1</source>
        <translation>Dieser Antrag kann nicht eingereicht werden: %1</translation>
    </message>
    <message>
        <source>The preview failed: %1</source>
        <translation>Die Vorschau ist fehlgeschlagen: %1</translation>
    </message>
    <message numerus="yes">
        <source>Preview done: review it, then submit for approval (%n approval(s) needed).</source>
        <translation>
            <numerusform>Vorschau fertig: prüfen, dann zur Genehmigung einreichen (%n Genehmigung nötig).</numerusform>
            <numerusform>Vorschau fertig: prüfen, dann zur Genehmigung einreichen (%n Genehmigungen nötig).</numerusform>
        </translation>
    </message>
    <message>
        <source>Preview cancelled.</source>
        <translation>Vorschau abgebrochen.</translation>
    </message>
    <message>
        <source>Preview first: the approver sees what you saw.</source>
        <translation>Zuerst die Vorschau: der Genehmiger sieht, was Sie gesehen haben.</translation>
    </message>
    <message>
        <source>Say why: the approver and the audit need to know.</source>
        <translation>Sagen Sie warum: Genehmiger und Audit müssen es wissen.</translation>
    </message>
</context>
<context>
    <name>ProfileDialog</name>
    <message>
        <source>Database password</source>
        <translation>Datenbankpasswort</translation>
    </message>
    <message>
        <source>Kafka %1</source>
        <translation>Kafka %1</translation>
    </message>
    <message>
        <source>&amp;Test connection</source>
        <translation>Verbindung &amp;testen</translation>
    </message>
    <message>
        <source>Connection profiles</source>
        <translation>Verbindungsprofile</translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation>&amp;Neu</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>&amp;Löschen</translation>
    </message>
    <message>
        <source>Any librdkafka property, one per line:
security.protocol=SASL_SSL
sasl.mechanisms=SCRAM-SHA-512
sasl.username=berth
sasl.password=…</source>
        <translation>Beliebige librdkafka-Eigenschaften, eine pro Zeile:
security.protocol=SASL_SSL
sasl.mechanisms=SCRAM-SHA-512
sasl.username=berth
sasl.password=…</translation>
    </message>
    <message>
        <source>groups to watch where brokers cannot list them (comma-separated)</source>
        <translation>zu beobachtende Gruppen, falls die Broker sie nicht auflisten können (kommagetrennt)</translation>
    </message>
    <message>
        <source>dead-letter topics (comma-separated)</source>
        <translation>Dead-Letter-Topics (kommagetrennt)</translation>
    </message>
    <message>
        <source>topics tailed for duplicate idempotency keys</source>
        <translation>Topics, die auf doppelte Idempotenzschlüssel mitgelesen werden</translation>
    </message>
    <message>
        <source>host=db port=5432 dbname=orders user=berth · postgresql://… · service=name</source>
        <translation>host=db port=5432 dbname=orders user=berth · postgresql://… · service=name</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>&amp;Durchsuchen …</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>Na&amp;me:</translation>
    </message>
    <message>
        <source>&amp;Bootstrap servers:</source>
        <translation>&amp;Bootstrap-Server:</translation>
    </message>
    <message>
        <source>Kafka &amp;properties:</source>
        <translation>Kafka-&amp;Eigenschaften:</translation>
    </message>
    <message>
        <source>Consumer &amp;groups:</source>
        <translation>Consumer-&amp;Gruppen:</translation>
    </message>
    <message>
        <source>D&amp;LQ topics:</source>
        <translation>DL&amp;Q-Topics:</translation>
    </message>
    <message>
        <source>Duplicate &amp;tail:</source>
        <translation>D&amp;uplikat-Tail:</translation>
    </message>
    <message>
        <source>&amp;Inbox database:</source>
        <translation>&amp;Inbox-Datenbank:</translation>
    </message>
    <message>
        <source>Database pass&amp;word:</source>
        <translation>Datenbank-&amp;Passwort:</translation>
    </message>
    <message>
        <source>Delivery p&amp;olicy:</source>
        <translation>&amp;Zustellrichtlinie:</translation>
    </message>
    <message>
        <source>Sample &amp;every:</source>
        <translation>&amp;Abfrage alle:</translation>
    </message>
    <message>
        <source>&amp;Connect</source>
        <translation>&amp;Verbinden</translation>
    </message>
    <message>
        <source>new profile</source>
        <translation>neues Profil</translation>
    </message>
    <message>
        <source>sslmode: %1</source>
        <translation>sslmode: %1</translation>
    </message>
    <message>
        <source>Delivery policy</source>
        <translation>Zustellrichtlinie</translation>
    </message>
    <message>
        <source>YAML files (*.yaml *.yml);;All files (*)</source>
        <translation>YAML-Dateien (*.yaml *.yml);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>local</source>
        <translation>lokal</translation>
    </message>
    <message>
        <source>kept in the keychain; type to replace</source>
        <translation>im Schlüsselbund gespeichert; zum Ersetzen eintippen</translation>
    </message>
    <message>
        <source>none: libpq may still use ~/.pgpass</source>
        <translation>keins: libpq kann trotzdem ~/.pgpass verwenden</translation>
    </message>
    <message>
        <source>Kept in the keychain, not shown: %1. Leave a value empty to keep it.</source>
        <translation>Im Schlüsselbund gespeichert, nicht angezeigt: %1. Ein leeres Feld behält den Wert.</translation>
    </message>
    <message>
        <source>A profile needs a name.</source>
        <translation>Ein Profil braucht einen Namen.</translation>
    </message>
    <message>
        <source>Saved “%1”.</source>
        <translation>„%1“ gespeichert.</translation>
    </message>
    <message numerus="yes">
        <source>Saved “%1”; storing %n secret(s) in the keychain…</source>
        <translation>
            <numerusform>„%1“ gespeichert; %n Geheimnis wird im Schlüsselbund abgelegt …</numerusform>
            <numerusform>„%1“ gespeichert; %n Geheimnisse werden im Schlüsselbund abgelegt …</numerusform>
        </translation>
    </message>
    <message>
        <source>Saved “%1”; its secrets are in the keychain.</source>
        <translation>„%1“ gespeichert; seine Geheimnisse liegen im Schlüsselbund.</translation>
    </message>
    <message>
        <source>Testing…</source>
        <translation>Wird getestet …</translation>
    </message>
    <message>
        <source>Kafka ✔ %1</source>
        <translation>Kafka ✔ %1</translation>
    </message>
    <message>
        <source>Kafka ✘ %1</source>
        <translation>Kafka ✘ %1</translation>
    </message>
    <message>
        <source>Database ✔ %1</source>
        <translation>Datenbank ✔ %1</translation>
    </message>
    <message>
        <source>Database ✘ %1</source>
        <translation>Datenbank ✘ %1</translation>
    </message>
    <message>
        <source>No inbox database configured.</source>
        <translation>Keine Inbox-Datenbank konfiguriert.</translation>
    </message>
    <message>
        <source>Delete profile</source>
        <translation>Profil löschen</translation>
    </message>
    <message>
        <source>Delete the profile “%1” and its keychain entries?</source>
        <translation>Profil „%1“ und seine Schlüsselbund-Einträge löschen?</translation>
    </message>
    <message>
        <source>Deleted “%1”.</source>
        <translation>„%1“ gelöscht.</translation>
    </message>
    <message>
        <source>The keychain has no entry for it.</source>
        <translation>Der Schlüsselbund hat keinen Eintrag dafür.</translation>
    </message>
    <message>
        <source>Secret for “%1”</source>
        <translation>Geheimnis für „%1“</translation>
    </message>
    <message>
        <source>%1

%2</source>
        <translation>%1

%2</translation>
    </message>
    <message>
        <source>Inbox &amp;mappings…</source>
        <translation>Inbox-&amp;Zuordnungen …</translation>
    </message>
    <message>
        <source>Map this profile&apos;s inbox and outbox tables (any names, any database)</source>
        <translation>Die Inbox- und Outbox-Tabellen dieses Profils zuordnen (beliebige Namen, beliebige Datenbank)</translation>
    </message>
    <message>
        <source>Inbox tables:</source>
        <translation>Inbox-Tabellen:</translation>
    </message>
    <message>
        <source>none (the policy file may map some)</source>
        <translation>keine (die Richtliniendatei kann welche zuordnen)</translation>
    </message>
    <message numerus="yes">
        <source>%n mapping(s): %1</source>
        <translation>
            <numerusform>%n Zuordnung: %1</numerusform>
            <numerusform>%n Zuordnungen: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Inbox mappings changed; Save keeps them in the profile.</source>
        <translation>Inbox-Zuordnungen geändert; Speichern übernimmt sie ins Profil.</translation>
    </message>
    <message>
        <source>“%1” is in use but not saved; Save keeps it.</source>
        <translation>„%1“ ist in Gebrauch, aber nicht gespeichert; Speichern behält es.</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>Ungespeicherte Änderungen</translation>
    </message>
    <message>
        <source>The profile “%1” has changes that are not saved.</source>
        <translation>Das Profil „%1“ hat Änderungen, die nicht gespeichert sind.</translation>
    </message>
</context>
<context>
    <name>RefreshClock</name>
    <message numerus="yes">
        <source>not read yet, follows the source every %n s</source>
        <translation>
            <numerusform>noch nicht gelesen, folgt der Quelle alle %n s</numerusform>
            <numerusform>noch nicht gelesen, folgt der Quelle alle %n s</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>read %1, follows the source every %n s</source>
        <translation>
            <numerusform>gelesen %1, folgt der Quelle alle %n s</numerusform>
            <numerusform>gelesen %1, folgt der Quelle alle %n s</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RemediationDesk</name>
    <message>
        <source>A&amp;udit trail</source>
        <translation>A&amp;udit-Trail</translation>
    </message>
    <message>
        <source>operator</source>
        <translation>Operator</translation>
    </message>
    <message>
        <source>approver</source>
        <translation>Genehmiger</translation>
    </message>
    <message>
        <source>Audit database: connected and live, as %1 (%2)</source>
        <translation>Audit-Datenbank: verbunden und live, als %1 (%2)</translation>
    </message>
    <message>
        <source>no Berth role</source>
        <translation>keine Berth-Rolle</translation>
    </message>
    <message>
        <source>Audit database: connecting…</source>
        <translation>Audit-Datenbank: Verbindung wird aufgebaut …</translation>
    </message>
    <message>
        <source>Audit database unavailable, retrying: %1</source>
        <translation>Audit-Datenbank nicht verfügbar, neuer Versuch: %1</translation>
    </message>
    <message>
        <source>Audit database: %1</source>
        <translation>Audit-Datenbank: %1</translation>
    </message>
    <message>
        <source>Could not read the approval queue: %1</source>
        <translation>Die Genehmigungswarteschlange konnte nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>no Kafka cluster is configured for this desk</source>
        <translation>für diesen Arbeitsplatz ist kein Kafka-Cluster konfiguriert</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <source>Appr&amp;ovals</source>
        <translation>&amp;Freigaben</translation>
    </message>
    <message>
        <source>E&amp;xecution</source>
        <translation>Ausführu&amp;ng</translation>
    </message>
    <message>
        <source>Another run is still going on this desk.</source>
        <translation>Auf diesem Arbeitsplatz läuft noch eine andere Ausführung.</translation>
    </message>
    <message>
        <source>no audit database: a reveal must be recorded</source>
        <translation>keine Audit-Datenbank: Ein Aufdecken muss protokolliert werden</translation>
    </message>
</context>
<context>
    <name>ReplayExecutionPanel</name>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>Run&amp;book…</source>
        <translation>Run&amp;book …</translation>
    </message>
    <message>
        <source>Execution</source>
        <translation>Ausführung</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Requested by</source>
        <translation>Angefordert von</translation>
    </message>
    <message>
        <source>Items</source>
        <translation>Elemente</translation>
    </message>
    <message>
        <source>Approvals</source>
        <translation>Freigaben</translation>
    </message>
    <message>
        <source>Created (UTC)</source>
        <translation>Erstellt (UTC)</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>no canary</source>
        <translation>kein Canary</translation>
    </message>
    <message>
        <source>Send this many first, watch the DLQ for them, and pause if they fail again</source>
        <translation>Zuerst so viele senden, die DLQ auf sie beobachten und pausieren, falls sie erneut fehlschlagen</translation>
    </message>
    <message>
        <source>Canary:</source>
        <translation>Canary:</translation>
    </message>
    <message>
        <source>Items that are not delivered or skipped are listed here, with why.</source>
        <translation>Elemente, die weder zugestellt noch übersprungen wurden, stehen hier – mit Begründung.</translation>
    </message>
    <message>
        <source>Problems:</source>
        <translation>Probleme:</translation>
    </message>
    <message>
        <source>Pausing after the record in flight…</source>
        <translation>Pause nach dem gerade gesendeten Record …</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>Wird abgebrochen …</translation>
    </message>
    <message>
        <source>Export runbook</source>
        <translation>Runbook exportieren</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message>
        <source>Could not read the requests: %1</source>
        <translation>Die Anfragen konnten nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Request %1 is running.</source>
        <translation>Anfrage %1 läuft.</translation>
    </message>
    <message>
        <source>Select an approved request to execute it.</source>
        <translation>Wählen Sie eine freigegebene Anfrage, um sie auszuführen.</translation>
    </message>
    <message>
        <source>Only members of berth_operator execute requests.</source>
        <translation>Nur Mitglieder von berth_operator führen Anfragen aus.</translation>
    </message>
    <message>
        <source>Request %1 is %2: only approved or partially failed requests execute.</source>
        <translation>Anfrage %1 ist %2: Nur freigegebene oder teilweise fehlgeschlagene Anfragen werden ausgeführt.</translation>
    </message>
    <message>
        <source>Starting request %1…</source>
        <translation>Anfrage %1 wird gestartet …</translation>
    </message>
    <message>
        <source>Writing the runbook of request %1…</source>
        <translation>Runbook von Anfrage %1 wird geschrieben …</translation>
    </message>
    <message>
        <source>%1: %2 of %3 done — %4 delivered (%5 reconciled), %6 failed, %7 skipped — %8 msgs/s, ETA %9</source>
        <translation>%1: %2 von %3 erledigt — %4 zugestellt (%5 abgeglichen), %6 fehlgeschlagen, %7 übersprungen — %8 Nachr./s, Restzeit %9</translation>
    </message>
    <message>
        <source> — the canary came back to the DLQ: paused</source>
        <translation> — der Canary kam in die DLQ zurück: pausiert</translation>
    </message>
    <message>
        <source>item %1 (%2): %3</source>
        <translation>Element %1 (%2): %3</translation>
    </message>
    <message>
        <source>Request %1 did not start: %2</source>
        <translation>Anfrage %1 wurde nicht gestartet: %2</translation>
    </message>
    <message>
        <source>%1 delivered (%2 found by reconciliation), %3 skipped, %4 failed (%5 refused), %6 produced in this run</source>
        <translation>%1 zugestellt (%2 durch Abgleich gefunden), %3 übersprungen, %4 fehlgeschlagen (%5 verweigert), %6 in diesem Lauf produziert</translation>
    </message>
    <message>
        <source>Request %1 stopped: %2 — it stays executing; execute it again to resume. %3</source>
        <translation>Anfrage %1 angehalten: %2 — sie bleibt in Ausführung; erneut ausführen, um fortzusetzen. %3</translation>
    </message>
    <message>
        <source>Request %1 ended %2: %3</source>
        <translation>Anfrage %1 endete %2: %3</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <source>Finished in %1 s.</source>
        <translation>Fertig nach %1 s.</translation>
    </message>
    <message>
        <source>Runbook written to %1</source>
        <translation>Runbook nach %1 geschrieben</translation>
    </message>
    <message>
        <source>Could not write the runbook to %1: %2</source>
        <translation>Das Runbook konnte nicht nach %1 geschrieben werden: %2</translation>
    </message>
    <message>
        <source>&amp;Execute</source>
        <translation>Au&amp;sführen</translation>
    </message>
    <message>
        <source>Pau&amp;se</source>
        <translation>&amp;Pausieren</translation>
    </message>
    <message>
        <source>&amp;Resume</source>
        <translation>F&amp;ortsetzen</translation>
    </message>
    <message>
        <source>Cancel ru&amp;n</source>
        <translation>Lauf abbr&amp;echen</translation>
    </message>
    <message>
        <source>After a replay, what its consumer did with each record: processed, no-op, failed, parked, back in the DLQ, or still pending.</source>
        <translation>Nach einem Replay: was sein Consumer mit jedem Record getan hat – verarbeitet, ohne Wirkung, fehlgeschlagen, geparkt, zurück in der DLQ oder noch ausstehend.</translation>
    </message>
    <message>
        <source>Verification:</source>
        <translation>Verifikation:</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>ausstehend</translation>
    </message>
    <message>
        <source>not delivered</source>
        <translation>nicht zugestellt</translation>
    </message>
    <message>
        <source>processed</source>
        <translation>verarbeitet</translation>
    </message>
    <message>
        <source>no-op</source>
        <translation>ohne Wirkung</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>parked</source>
        <translation>geparkt</translation>
    </message>
    <message>
        <source>back in the DLQ</source>
        <translation>zurück in der DLQ</translation>
    </message>
    <message>
        <source>consumed</source>
        <translation>konsumiert</translation>
    </message>
    <message>
        <source>no inbox row</source>
        <translation>keine Inbox-Zeile</translation>
    </message>
    <message>
        <source>Request %1 cannot be verified: %2</source>
        <translation>Anfrage %1 kann nicht verifiziert werden: %2</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>verified</source>
        <translation>verifiziert</translation>
    </message>
    <message>
        <source>verified with failures</source>
        <translation>verifiziert mit Fehlern</translation>
    </message>
    <message>
        <source>unverified: still pending when the wait ended (verify again later)</source>
        <translation>nicht verifiziert: beim Ende der Wartezeit noch ausstehend (später erneut verifizieren)</translation>
    </message>
    <message>
        <source>following…</source>
        <translation>wird verfolgt …</translation>
    </message>
    <message>
        <source>Request %1 at %2: %3 — %4 — no-op rate observed %5%, predicted %6</source>
        <translation>Anfrage %1 bei %2: %3 — %4 — No-op-Rate beobachtet %5 %, vorhergesagt %6</translation>
    </message>
    <message>
        <source> (also receives: %1)</source>
        <translation> (empfängt auch: %1)</translation>
    </message>
    <message>
        <source>item %1 (%2): %3%4</source>
        <translation>Element %1 (%2): %3%4</translation>
    </message>
    <message>
        <source>Reading the verification recorded for request %1…</source>
        <translation>Die für Anfrage %1 aufgezeichnete Verifikation wird gelesen…</translation>
    </message>
    <message>
        <source>Could not read the verification recorded for request %1: %2</source>
        <translation>Die für Anfrage %1 aufgezeichnete Verifikation konnte nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>No verification recorded for request %1.</source>
        <translation>Für Anfrage %1 ist keine Verifikation aufgezeichnet.</translation>
    </message>
    <message>
        <source>Recorded %1 (audit event %2): </source>
        <translation>Aufgezeichnet %1 (Audit-Ereignis %2): </translation>
    </message>
    <message>
        <source>partition %1: %2 → %3, committed %4%5</source>
        <translation>Partition %1: %2 → %3, committet %4%5</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keiner</translation>
    </message>
    <message>
        <source>unread</source>
        <translation>ungelesen</translation>
    </message>
    <message>
        <source> (differs)</source>
        <translation> (weicht ab)</translation>
    </message>
    <message>
        <source>Request %1 stopped: %2</source>
        <translation>Anfrage %1 angehalten: %2</translation>
    </message>
    <message>
        <source>Request %1 refused, nothing moved: %2</source>
        <translation>Anfrage %1 verweigert, nichts verschoben: %2</translation>
    </message>
    <message numerus="yes">
        <source>Request %1 ended %2: group %3 on %4, %n partition(s) committed and read back%5</source>
        <translation>
            <numerusform>Anfrage %1 endete %2: Gruppe %3 auf %4, %n Partition committet und zurückgelesen%5</numerusform>
            <numerusform>Anfrage %1 endete %2: Gruppe %3 auf %4, %n Partitionen committet und zurückgelesen%5</numerusform>
        </translation>
    </message>
    <message>
        <source>, verified</source>
        <translation>, verifiziert</translation>
    </message>
    <message>
        <source>, some differ</source>
        <translation>, einige weichen ab</translation>
    </message>
    <message>
        <source>Committed offsets read back: verified</source>
        <translation>Committete Offsets zurückgelesen: verifiziert</translation>
    </message>
    <message>
        <source>Committed offsets read back: some differ</source>
        <translation>Committete Offsets zurückgelesen: einige weichen ab</translation>
    </message>
    <message>
        <source> — verified</source>
        <translation> — verifiziert</translation>
    </message>
    <message>
        <source>Request %1, offset reset of group %2 on %3: %4 from the committed offsets read back</source>
        <translation>Anfrage %1, Offset-Reset der Gruppe %2 auf %3: %4 laut den zurückgelesenen committeten Offsets</translation>
    </message>
    <message>
        <source>An offset reset produces nothing: no canary</source>
        <translation>Ein Offset-Reset produziert nichts: kein Canary</translation>
    </message>
    <message>
        <source>partition %1: moved since the reset, committed %2 (target %3): left where it is, not reset again</source>
        <translation>Partition %1: seit dem Reset weitergerückt, committet %2 (Ziel %3): bleibt, wo sie ist, wird nicht erneut zurückgesetzt</translation>
    </message>
    <message>
        <source>verified with failures (some partitions are not at their targets)</source>
        <translation>verifiziert mit Fehlern (einige Partitionen stehen nicht auf ihrem Ziel)</translation>
    </message>
    <message>
        <source>back in the DLQ at %1</source>
        <translation>zurück in der DLQ bei %1</translation>
    </message>
</context>
<context>
    <name>ReplayRequestDialog</name>
    <message>
        <source>One dead letter: %1 [%2] @ %3</source>
        <translation>Ein Dead Letter: %1 [%2] @ %3</translation>
    </message>
    <message numerus="yes">
        <source>%n dead letter(s) from %1, partition(s) %2</source>
        <translation>
            <numerusform>%n Dead Letter aus %1, Partition(en) %2</numerusform>
            <numerusform>%n Dead Letters aus %1, Partition(en) %2</numerusform>
        </translation>
    </message>
    <message>
        <source>Not valid JSON — line %1, column %2: %3</source>
        <translation>Kein gültiges JSON — Zeile %1, Spalte %2: %3</translation>
    </message>
    <message>
        <source>One parked inbox row: %1 in %2</source>
        <translation>Eine geparkte Inbox-Zeile: %1 in %2</translation>
    </message>
    <message numerus="yes">
        <source>%n parked inbox row(s) in %1</source>
        <translation>
            <numerusform>%n geparkte Inbox-Zeile in %1</numerusform>
            <numerusform>%n geparkte Inbox-Zeilen in %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Request replay / skip</source>
        <translation>Replay / Skip anfordern</translation>
    </message>
    <message>
        <source>Replay</source>
        <translation>Replay</translation>
    </message>
    <message>
        <source>Edit and replay</source>
        <translation>Bearbeiten und Replay</translation>
    </message>
    <message>
        <source>Skip with audit</source>
        <translation>Überspringen mit Audit</translation>
    </message>
    <message>
        <source>Delete parked row</source>
        <translation>Geparkte Zeile löschen</translation>
    </message>
    <message>
        <source>&amp;Original topic (from the dead-letter headers)</source>
        <translation>&amp;Original-Topic (aus den Dead-Letter-Headern)</translation>
    </message>
    <message>
        <source>&amp;This topic:</source>
        <translation>&amp;Dieses Topic:</translation>
    </message>
    <message>
        <source> msgs/s</source>
        <translation> Nachr./s</translation>
    </message>
    <message>
        <source>unlimited</source>
        <translation>unbegrenzt</translation>
    </message>
    <message>
        <source>poison-fixed — the consumer now handles these messages</source>
        <translation>poison-fixed — der Consumer verarbeitet diese Nachrichten jetzt</translation>
    </message>
    <message>
        <source>downstream-recovered — a dependency was down and is back</source>
        <translation>downstream-recovered — eine Abhängigkeit war ausgefallen und ist zurück</translation>
    </message>
    <message>
        <source>data-corrected — the payload was wrong and is corrected</source>
        <translation>data-corrected — die Nutzdaten waren falsch und sind korrigiert</translation>
    </message>
    <message>
        <source>duplicate — already handled another way</source>
        <translation>duplicate — bereits auf anderem Weg erledigt</translation>
    </message>
    <message>
        <source>obsolete — no longer needed</source>
        <translation>obsolete — nicht mehr nötig</translation>
    </message>
    <message>
        <source>other — see the reason</source>
        <translation>other — siehe Begründung</translation>
    </message>
    <message>
        <source>Why, in words: the approver and the audit trail read this</source>
        <translation>Warum, in Worten: Genehmiger und Audit-Trail lesen das</translation>
    </message>
    <message>
        <source>e.g. OPS-1234</source>
        <translation>z. B. OPS-1234</translation>
    </message>
    <message>
        <source>Edited &amp;payload (JSON):</source>
        <translation>Bearbeitete &amp;Nutzdaten (JSON):</translation>
    </message>
    <message>
        <source>Selection:</source>
        <translation>Auswahl:</translation>
    </message>
    <message>
        <source>&amp;Action:</source>
        <translation>&amp;Aktion:</translation>
    </message>
    <message>
        <source>Destination:</source>
        <translation>Ziel:</translation>
    </message>
    <message>
        <source>&amp;Rate limit:</source>
        <translation>&amp;Ratenlimit:</translation>
    </message>
    <message>
        <source>R&amp;eason:</source>
        <translation>&amp;Begründung:</translation>
    </message>
    <message>
        <source>T&amp;icket:</source>
        <translation>&amp;Ticket:</translation>
    </message>
    <message>
        <source>E&amp;xpires:</source>
        <translation>Ab&amp;lauf:</translation>
    </message>
    <message>
        <source>&amp;Dry run</source>
        <translation>&amp;Probelauf</translation>
    </message>
    <message>
        <source>Pin the items and show what the request would do, before anything is filed</source>
        <translation>Die Elemente festschreiben und zeigen, was die Anfrage bewirken würde, bevor etwas eingereicht wird</translation>
    </message>
    <message>
        <source>Cance&amp;l dry run</source>
        <translation>Probelauf abbre&amp;chen</translation>
    </message>
    <message>
        <source>Run the dry run to see the blast radius, the expected no-op rate, the ordering risk and the policy verdict.</source>
        <translation>Starten Sie den Probelauf, um Auswirkungsbereich, erwartete No-op-Rate, Reihenfolgerisiko und Policy-Urteil zu sehen.</translation>
    </message>
    <message>
        <source>&amp;Submit for approval</source>
        <translation>Zur &amp;Freigabe einreichen</translation>
    </message>
    <message>
        <source>Reading the record from Kafka…</source>
        <translation>Record wird aus Kafka gelesen …</translation>
    </message>
    <message>
        <source>Could not read the record to edit: %1</source>
        <translation>Der zu bearbeitende Record konnte nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>The edited payload is empty.</source>
        <translation>Die bearbeiteten Nutzdaten sind leer.</translation>
    </message>
    <message>
        <source>The request changed: run the dry run again before submitting.</source>
        <translation>Die Anfrage wurde geändert: Starten Sie den Probelauf vor dem Einreichen erneut.</translation>
    </message>
    <message>
        <source>Fix the edited payload first.</source>
        <translation>Korrigieren Sie zuerst die bearbeiteten Nutzdaten.</translation>
    </message>
    <message>
        <source>Name the topic to replay into, or choose the original topic.</source>
        <translation>Nennen Sie das Ziel-Topic für das Replay oder wählen Sie das Original-Topic.</translation>
    </message>
    <message numerus="yes">
        <source>Pinning %n item(s) and running the dry run…</source>
        <translation>
            <numerusform>%n Element wird festgeschrieben, Probelauf läuft …</numerusform>
            <numerusform>%n Elemente werden festgeschrieben, Probelauf läuft …</numerusform>
        </translation>
    </message>
    <message>
        <source>This request cannot be submitted: %1</source>
        <translation>Diese Anfrage kann nicht eingereicht werden: %1</translation>
    </message>
    <message>
        <source>The dry run failed: %1</source>
        <translation>Der Probelauf ist fehlgeschlagen: %1</translation>
    </message>
    <message numerus="yes">
        <source>Dry run done: review it, then submit for approval (%n approval(s) needed).</source>
        <translation>
            <numerusform>Probelauf fertig: prüfen Sie ihn, dann zur Freigabe einreichen (%n Freigabe nötig).</numerusform>
            <numerusform>Probelauf fertig: prüfen Sie ihn, dann zur Freigabe einreichen (%n Freigaben nötig).</numerusform>
        </translation>
    </message>
    <message>
        <source>Dry run cancelled.</source>
        <translation>Probelauf abgebrochen.</translation>
    </message>
    <message>
        <source>The edited payload is not valid JSON.</source>
        <translation>Die bearbeiteten Nutzdaten sind kein gültiges JSON.</translation>
    </message>
    <message>
        <source>The dry run is running.</source>
        <translation>Der Probelauf läuft.</translation>
    </message>
    <message>
        <source>Run the dry run first: the approver sees what you saw.</source>
        <translation>Starten Sie zuerst den Probelauf: Der Genehmiger sieht, was Sie gesehen haben.</translation>
    </message>
    <message>
        <source>The delivery policy blocks this request.</source>
        <translation>Die Delivery-Policy blockiert diese Anfrage.</translation>
    </message>
    <message>
        <source>Give a reason: the approver and the audit trail need to know why.</source>
        <translation>Geben Sie eine Begründung an: Genehmiger und Audit-Trail müssen wissen, warum.</translation>
    </message>
    <message>
        <source>Reaso&amp;n code:</source>
        <translation>&amp;Grundcode:</translation>
    </message>
    <message>
        <source>Re&amp;lease parked or failed inbox rows first (the mapping&apos;s releaseTo)</source>
        <translation>Geparkte oder fehlgeschlagene Inbox-Zeilen &amp;zuerst freigeben (releaseTo der Zuordnung)</translation>
    </message>
    <message>
        <source>Release and replay: a consumer skips a message whose inbox row is parked, so the replay would be a no-op. Each such row is released right before its record is produced, within this approved request; a row that changes meanwhile is refused.</source>
        <translation>Freigeben und Replay: Ein Consumer überspringt eine Nachricht, deren Inbox-Zeile geparkt ist; das Replay bliebe ohne Wirkung. Jede solche Zeile wird direkt vor dem Produzieren ihres Records freigegeben, innerhalb dieser genehmigten Anfrage; eine Zeile, die sich inzwischen ändert, wird verweigert.</translation>
    </message>
    <message>
        <source>Inbox:</source>
        <translation>Inbox:</translation>
    </message>
    <message>
        <source>Edited &amp;payload (JSON; fields shown as (masked) keep their values and cannot be edited unless the record is revealed):</source>
        <translation>Bearbeitete &amp;Nutzdaten (JSON; als (masked) gezeigte Felder behalten ihre Werte und sind erst nach Aufdecken des Datensatzes änderbar):</translation>
    </message>
    <message>
        <source>Edited &amp;payload (JSON, encoded with the record&apos;s schema):</source>
        <translation>Bearbeitete &amp;Nutzdaten (JSON, mit dem Schema des Datensatzes kodiert):</translation>
    </message>
    <message>
        <source>The schema the edit is encoded with: the record&apos;s own, or a newer version of its subject from the Schema Registry (its id goes into the record). The dry run checks that the edit fits it.</source>
        <translation>Das Schema, mit dem die Bearbeitung kodiert wird: das des Datensatzes oder eine neuere Version seines Subjects aus der Schema Registry (deren ID kommt in den Datensatz). Der Probelauf prüft, dass die Bearbeitung dazu passt.</translation>
    </message>
    <message>
        <source>Encode &amp;with:</source>
        <translation>Kodieren &amp;mit:</translation>
    </message>
    <message>
        <source>%1: the record&apos;s own</source>
        <translation>%1: das des Datensatzes</translation>
    </message>
    <message>
        <source>%1 v%2 (id %3): newer</source>
        <translation>%1 v%2 (ID %3): neuer</translation>
    </message>
    <message numerus="yes">
        <source>%n record(s) of %1 for consumer %2, partition(s) %3: replayed into their own topic</source>
        <translation>
            <numerusform>%n Record von %1 für Consumer %2, Partition(en) %3: wird in sein eigenes Topic wiedereingespielt</numerusform>
            <numerusform>%n Records von %1 für Consumer %2, Partition(en) %3: werden in ihr eigenes Topic wiedereingespielt</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RequestSubmission</name>
    <message>
        <source>Request %1 is filed.</source>
        <translation>Anfrage %1 ist eingereicht.</translation>
    </message>
    <message>
        <source>Submitting…</source>
        <translation>Wird eingereicht …</translation>
    </message>
    <message>
        <source>Submitting the request…</source>
        <translation>Anfrage wird eingereicht …</translation>
    </message>
    <message>
        <source>The database refused the request: %1</source>
        <translation>Die Datenbank hat die Anfrage abgelehnt: %1</translation>
    </message>
    <message numerus="yes">
        <source>Request %1 filed: pending, %n approval(s) needed. Another person approves it in the Approvals tab.</source>
        <translation>
            <numerusform>Anfrage %1 eingereicht: ausstehend, %n Freigabe nötig. Eine andere Person gibt sie im Tab „Freigaben“ frei.</numerusform>
            <numerusform>Anfrage %1 eingereicht: ausstehend, %n Freigaben nötig. Eine andere Person gibt sie im Tab „Freigaben“ frei.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SecretStore</name>
    <message>
        <source>unknown error</source>
        <translation>unbekannter Fehler</translation>
    </message>
    <message>
        <source>No keychain service is available (%1). Berth never writes secrets to its settings file, so it asks for them each time.</source>
        <translation>Kein Schlüsselbund-Dienst verfügbar (%1). Berth schreibt Geheimnisse nie in seine Einstellungsdatei und fragt deshalb jedes Mal danach.</translation>
    </message>
    <message>
        <source>The keychain refused (%1). Berth never writes secrets to its settings file, so it asks for them each time.</source>
        <translation>Der Schlüsselbund hat abgelehnt (%1). Berth schreibt Geheimnisse nie in seine Einstellungsdatei und fragt deshalb jedes Mal danach.</translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <source>Views</source>
        <translation>Ansichten</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>Tasten</translation>
    </message>
    <message>
        <source>(unnamed action)</source>
        <translation>(unbenannte Aktion)</translation>
    </message>
</context>
<context>
    <name>SummaryStrip</name>
    <message>
        <source>Status at a glance</source>
        <translation>Lage auf einen Blick</translation>
    </message>
</context>
</TS>
