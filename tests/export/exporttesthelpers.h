#pragma once

#include "export/claudecodeexport.h"
#include "cli/exportcommand.h"
#include "export/clineexport.h"
#include "export/codexexport.h"
#include "export/qwenexport.h"
#include "export/opencodeexport.h"
#include "export/piexport.h"
#include "export/relaymodel.h"
#include "export/samplerwords.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace exporttest {

using namespace Qt::StringLiterals;
using namespace switchyard;

inline RelayModel model(const QString &alias, int context = 0)
{
    RelayModel m;
    m.alias = alias;
    m.contextSize = context;
    return m;
}

inline QJsonObject parseObject(const QByteArray &json)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        qWarning() << "not JSON:" << error.errorString() << json;
    return doc.object();
}

struct CommandResult
{
    int code = -1;
    QString out;
    QString err;
};

inline CommandResult runCommand(const QStringList &arguments)
{
    CommandResult r;
    QTextStream out(&r.out);
    QTextStream err(&r.err);
    r.code = runExportCommand(arguments, out, err);
    out.flush();
    err.flush();
    return r;
}

// A relay's /v1/models in router format: one loaded model with meta, one from a preset, one bare.
const QByteArray kRelayList = R"({"object":"list","data":[
 {"id":"3090-qwen38-27b","object":"model","status":{"value":"loaded","args":["llama-server","--port","1"]},
  "meta":{"n_ctx":131072,"n_ctx_train":262144},"proxy":{"host":"3090","key":"qwen38-27b","engine":"mainline"}},
 {"id":"3090-flint-40b","object":"model","status":{"value":"unloaded","args":["llama-server","-c","65536"]},
  "proxy":{"host":"3090","key":"flint-40b","engine":"fork"}},
 {"id":"a9-MiniMax-M2-q4","object":"model","status":{"value":"unloaded","args":[],
  "preset":"[MiniMax-M2-q4]\nctx-size = 8192\nmodel = /m.gguf\n"},"proxy":{"host":"a9","key":"MiniMax-M2-q4"}},
 {"id":"a9-tiny","object":"model","status":{"value":"unloaded"}},
 {"id":"a9-q38-27b-128k","object":"model","status":{"value":"unloaded"},
  "proxy":{"host":"a9","key":"q38-27b-128k","engine":"fork","n_ctx":131072}}
]})";

} // namespace exporttest
