#pragma once

#include "config/config.h"

#include <QList>
#include <QString>

#include <algorithm>
#include <utility>

namespace switchyard {

// Everything wrong with one config file (or one command line), each with its line and field path.
// The readers of every file kind write into one report; it then becomes the loader's result.
class ConfigReport final
{
public:
    // file only labels the errors; empty for the command line.
    explicit ConfigReport(QString file) : m_file(std::move(file)) {}

    void error(int line, const QString &path, const QString &message, int column = 0)
    {
        m_errors.append(ConfigError{m_file, line, path, message, column});
    }

    void warning(int line, const QString &path, const QString &message)
    {
        m_warnings.append(ConfigError{m_file, line, path, message});
    }

    bool hasErrors() const { return !m_errors.isEmpty(); }

    // A ConfigResult or AgentConfigResult: the errors and warnings in line order, and the config
    // only when there are no errors.
    template<typename Result, typename Value>
    Result result(const Value &config) const
    {
        // Checks run section by section; people read the report top to bottom with the file open.
        const auto byLine = [](const ConfigError &a, const ConfigError &b) { return a.line < b.line; };
        Result r;
        r.errors = m_errors;
        r.warnings = m_warnings;
        std::stable_sort(r.errors.begin(), r.errors.end(), byLine);
        std::stable_sort(r.warnings.begin(), r.warnings.end(), byLine);
        if (m_errors.isEmpty())
            r.config = config;
        return r;
    }

private:
    QString m_file;
    QList<ConfigError> m_errors;
    QList<ConfigError> m_warnings;
};

} // namespace switchyard
