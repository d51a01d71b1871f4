#pragma once

#include "app/launch.h"

#include <QApplication>
#include <QLocale>
#include <QTranslator>

namespace switchyard::test {

// The window as a German desktop gets it: the German locale, Qt's own catalogue (which Launch
// loads, as main() does) and ours, read from qmDir, the build's (the executable has it as a
// resource). False when ours cannot be read. It stays installed: tests call it last.
inline bool useGerman(const QString &qmDir)
{
    QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
    Launch::setUpApplication(qApp);
    auto *ours = new QTranslator(qApp);
    if (!ours->load(QStringLiteral("switchyard_de"), qmDir))
        return false;
    QCoreApplication::installTranslator(ours);
    return true;
}

} // namespace switchyard::test
