#pragma once

#include "journal/requestrecord.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>
#include <QStringView>

#include <chrono>

namespace switchyard {

// The journal's text lines, in the format of the Go relay this project replaces, so old
// greps and scripts keep working:
//   2026/10/24 22:21:41 POST /models/load model="3090-flint-40b" host=3090 status=200 bytes=16 dur=2.326s from=192.0.2.10 ua="Python-urllib/3.14"
//   2026/10/24 22:21:39 host 3090: switching to engine fork for 3090-flint-40b
// Anything a client controls is escaped, so no request can forge or split a line.
namespace JournalFormat {

// Exactly Go's time.Duration.String(): "0s", "1ns", "1.5µs", "423ms", "2.326s", "1m2.5s", "1h0m0s".
QString goDuration(std::chrono::nanoseconds d);

// Go's d.Round(time.Millisecond): halves round away from zero.
std::chrono::nanoseconds roundToMillisecond(std::chrono::nanoseconds d);

// A request's "dur=": rounded to the millisecond, then goDuration ("0s" below half a millisecond).
QString requestDuration(std::chrono::nanoseconds d);

// Go's strconv.Quote (%q): a double-quoted string with \" \\ \n \t \xNN \uNNNN ... escapes, and
// non-printable characters (controls, format characters such as U+202E, non-ASCII spaces) escaped.
QString goQuote(QStringView text);
// The same for raw bytes: invalid UTF-8 bytes come out as \xNN, as Go writes them.
QString goQuote(const QByteArray &utf8);

// "2026/10/24 22:21:41" in local time, like Go's log package.
QString timestamp(const QDateTime &when);

// The peer as people write it: IPv4-mapped IPv6 ("::ffff:192.0.2.10") without its prefix.
QString clientAddress(const QString &peer);

// One request line, stamped with the time it completed (startedAt + duration), which is when
// the line is written: a load that took 2.3 s shows after the switch lines it caused.
QString requestLine(const RequestRecord &record);

// One event line: "2026/10/24 22:21:39 host 3090: switching to engine fork for 3090-flint-40b".
// Control characters in text are escaped so it stays one line.
QString eventLine(const QDateTime &when, const QString &text);

} // namespace JournalFormat

} // namespace switchyard
