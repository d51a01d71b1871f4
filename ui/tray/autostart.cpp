#include "tray/autostart.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

// The Exec key's quoting (Desktop Entry Specification, "The Exec key").
QString quoteExecArgument(const QString &arg)
{
    static const QString reserved = u" \t\n\"'\\><~|&;$*?#()`"_s;
    bool needs = arg.isEmpty();
    for (QChar c : arg)
        needs = needs || reserved.contains(c);
    if (!needs)
        return arg;
    QString out = u"\""_s;
    for (QChar c : arg) {
        if (c == u'"' || c == u'`' || c == u'$' || c == u'\\')
            out += u'\\';
        out += c;
    }
    return out + u'"';
}

} // namespace

Autostart::Autostart(QString command)
    : m_command(std::move(command))
{
    if (m_command.isEmpty()) {
        const QString self = QCoreApplication::applicationFilePath();
        const QString onPath = QStandardPaths::findExecutable(u"switchyard"_s);
        m_command = (!onPath.isEmpty() && QFileInfo(onPath).canonicalFilePath() == QFileInfo(self).canonicalFilePath())
            || self.isEmpty() ? u"switchyard"_s : self;
    }
}

QString Autostart::directory()
{
    const QString overridden = qEnvironmentVariable("SWITCHYARD_AUTOSTART_DIR");
    if (!overridden.isEmpty())
        return overridden;
    return QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation) + u"/autostart"_s;
}

QString Autostart::filePath() const
{
    return QDir(directory()).filePath(u"switchyard.desktop"_s);
}

bool Autostart::isEnabled() const
{
    return QFileInfo::exists(filePath());
}

QString Autostart::desktopEntry() const
{
    return u"[Desktop Entry]\n"
           "Type=Application\n"
           "Name=Switchyard\n"
           "Comment=LLM relay for llama.cpp GPU boxes, in the tray\n"
           "Exec=%1 --tray\n"
           "Icon=switchyard\n"
           "Terminal=false\n"
           "X-GNOME-Autostart-enabled=true\n"_s.arg(quoteExecArgument(m_command));
}

bool Autostart::setEnabled(bool on, QString *error)
{
    const QString path = filePath();
    if (!on) {
        if (!QFileInfo::exists(path))
            return true;
        if (QFile::remove(path))
            return true;
        *error = tr("cannot remove %1").arg(path);
        return false;
    }
    if (!QDir().mkpath(directory())) {
        *error = tr("cannot create the folder %1").arg(directory());
        return false;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) {
        *error = tr("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    file.write(desktopEntry().toUtf8());
    if (!file.commit()) {
        *error = tr("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace switchyard
