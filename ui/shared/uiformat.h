#pragma once

#include <QCoreApplication>
#include <QDateTime>
#include <QString>

#include <chrono>
#include <optional>

namespace switchyard {

// How the desktop writes times, durations and sizes for people (the journal has its own,
// fixed format for scripts).
class UiFormat final
{
    Q_DECLARE_TR_FUNCTIONS(UiFormat)

public:
    // "just now", "12 s ago", "5 min ago", "3 h ago", then the date and time.
    static QString ago(const QDateTime &when, const QDateTime &now);
    // "850 ms", "2.3 s", "1 min 05 s", "2 h 10 min".
    static QString duration(std::chrono::milliseconds d);
    // A length of time in plain words, its zero parts left out: "45 s", "15 min", "1 h",
    // "2 h 30 min", "24 h" (for spans the user picks, not measured durations).
    static QString span(std::chrono::milliseconds d);
    // A context size in tokens: "4k", "128k", "256k", "1M".
    static QString tokens(qint64 count);
    // A local time of day "22:21:41", with the date when it is not today.
    static QString timeOfDay(const QDateTime &when, const QDateTime &now);
    // A file's path as people write it: the home folder as "~"
    // ("~/.config/switchyard/switchyard.json"), shorter and free of the user's name.
    static QString path(const QString &file);

    UiFormat() = delete;
};

} // namespace switchyard
