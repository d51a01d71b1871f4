#pragma once

#include "config/config.h"

#include <QCoreApplication>
#include <QList>
#include <QString>

namespace switchyard {

class HostsEditorModel;

// The engine addresses of the hosts editor's hosts, as they stand there (unsaved edits
// included): where a new engine of a host would answer, and which engines share an address.
// Two engines at one address would each think they alone hold that server (issue 30).
class HostsEditorUrls final
{
    Q_DECLARE_TR_FUNCTIONS(HostsEditorUrls)

public:
    // Where llama-server answers when nothing else says: its default port.
    static constexpr int DefaultEnginePort = 8080;

    // A new engine of host: on the box its first engine is on, at the port after the highest of
    // its engines there; with no engine address, at the agent's box or (driver local) 127.0.0.1 on
    // the default port. A port any host's engine or agent already has is skipped. Empty when
    // nothing says where the box is.
    static QString suggestEngineUrl(const HostsEditorModel &model, const QString &host);

    // An error at each engine URL that another engine (of this host or another) has too, in the
    // same words Add Host refuses one with: naming the host that has it. Empty URLs are the
    // readers' to judge.
    static QList<ConfigError> sharedAddresses(const HostsEditorModel &model);

    HostsEditorUrls() = delete;
};

} // namespace switchyard
