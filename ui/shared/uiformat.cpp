#include "shared/uiformat.h"

#include <QDir>
#include <QLocale>

namespace switchyard {

using namespace Qt::StringLiterals;

QString UiFormat::ago(const QDateTime &when, const QDateTime &now)
{
    if (!when.isValid())
        return tr("never");
    const qint64 s = when.secsTo(now);
    if (s < 2)
        return tr("just now");
    if (s < 60)
        return tr("%1 s ago").arg(s);
    if (s < 3600)
        return tr("%1 min ago").arg(s / 60);
    if (s < 24 * 3600)
        return tr("%1 h ago").arg(s / 3600);
    return QLocale().toString(when, QLocale::ShortFormat);
}

QString UiFormat::duration(std::chrono::milliseconds d)
{
    const qint64 ms = d.count();
    if (ms < 1000)
        return tr("%1 ms").arg(ms);
    if (ms < 60 * 1000)
        return tr("%1 s").arg(QLocale().toString(ms / 1000.0, 'f', ms < 10000 ? 1 : 0));
    const qint64 s = ms / 1000;
    if (s < 3600)
        return tr("%1 min %2 s").arg(s / 60).arg(s % 60, 2, 10, QChar(u'0'));
    return tr("%1 h %2 min").arg(s / 3600).arg((s % 3600) / 60, 2, 10, QChar(u'0'));
}

QString UiFormat::span(std::chrono::milliseconds d)
{
    const qint64 s = (d.count() + 500) / 1000;
    if (s < 60)
        return tr("%1 s").arg(s);
    const qint64 minutes = (s % 3600) / 60, seconds = s % 60;
    if (s >= 3600)
        return minutes == 0 ? tr("%1 h").arg(s / 3600) : tr("%1 h %2 min").arg(s / 3600).arg(minutes);
    return seconds == 0 ? tr("%1 min").arg(minutes) : tr("%1 min %2 s").arg(minutes).arg(seconds);
}

QString UiFormat::tokens(qint64 count)
{
    if (count <= 0)
        return {};
    if (count >= 1024 * 1024 && count % (1024 * 1024) == 0)
        return u"%1M"_s.arg(count / (1024 * 1024));
    if (count >= 1024)
        return u"%1k"_s.arg(count / 1024);
    return QString::number(count);
}

QString UiFormat::timeOfDay(const QDateTime &when, const QDateTime &now)
{
    if (!when.isValid())
        return {};
    const QString time = when.toString(u"HH:mm:ss"_s);
    if (when.date() == now.date())
        return time;
    return QLocale().toString(when.date(), QLocale::ShortFormat) + u' ' + time;
}

QString UiFormat::path(const QString &file)
{
    const QString home = QDir::homePath();
    const QString clean = QDir::cleanPath(file);
    if (home.isEmpty() || home == u"/"_s)
        return QDir::toNativeSeparators(clean);
    if (clean == home)
        return u"~"_s;
    if (clean.startsWith(home + u'/'))
        return QDir::toNativeSeparators(u"~"_s + clean.mid(home.size()));
    return QDir::toNativeSeparators(clean);
}

} // namespace switchyard
