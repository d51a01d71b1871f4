#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace switchyard {

// One entry of the relay's GET /v1/models, as a client config needs it.
struct RelayModel
{
    QString alias;       // the id clients send (`3090-flint-40b`)
    QString host;        // proxy.host, when the relay said
    QString key;         // proxy.key: the name on its engine
    int contextSize = 0; // tokens; 0 = the host did not say
    bool loaded = false;

    // Reads a /v1/models answer (llama.cpp router format or plain OpenAI). The context size
    // comes from meta.n_ctx (a loaded model), else proxy.n_ctx (what the relay saw while it was
    // loaded, on any engine), else the --ctx-size/-c in status.args or the ctx-size line of
    // status.preset. Returns false with *error on a malformed answer.
    static bool parseList(const QByteArray &json, QList<RelayModel> *models, QString *error);

    static QStringList aliases(const QList<RelayModel> &models);
    // The models named in `names`, in that order; unknown names go to *unknown.
    static QList<RelayModel> select(const QList<RelayModel> &models, const QStringList &names, QStringList *unknown);
    static const RelayModel *find(const QList<RelayModel> &models, const QString &alias);
    // The model a config defaults to: the first one loaded now (no swap for the first request),
    // else the first. Empty for an empty list.
    static QString defaultAlias(const QList<RelayModel> &models);
};

} // namespace switchyard
