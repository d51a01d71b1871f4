#pragma once

#include "config/jsonnode.h"

#include <QCoreApplication>
#include <QStringList>

namespace switchyard {

// What an edit changes in a config, field by field, for the question asked before a hand-edited
// file is written again: "hosts.gpu: added", "hosts.gpu.engines.main.url: "a" → "b"". Secrets
// (api_key, token) are said to change, never shown. "//" comments are not compared.
class ConfigDiff final
{
    // The config's messages share one translation context, whichever class words them.
    Q_DECLARE_TR_FUNCTIONS(ConfigLoader)

public:
    static QStringList changes(const JsonNode &before, const JsonNode &after);

    ConfigDiff() = delete;
};

} // namespace switchyard
