#pragma once

#include "config/checkconfig.h"
#include "config/config.h"
#include "config/configloader.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

namespace configtest {

using namespace switchyard;
using namespace Qt::StringLiterals;

const QString File = u"test.json"_s;

inline QString describe(const QList<ConfigError> &errors)
{
    QStringList lines;
    for (const ConfigError &e : errors)
        lines.append(e.toString());
    return lines.join(u'\n');
}

// A valid host block other rows can reuse, so each broken row has exactly one problem.
const QByteArray Box = R"("box": { "driver": "static", "engines": { "main": { "url": "http://box.lan:8080" } } })";

} // namespace configtest
