#pragma once

#include "journal/clientapp.h"

#include <QtGlobal>

namespace switchyard {

// A side call: what a coding agent sends beside its turns (opencode's title call, Claude Code's
// small-model calls for titles and topics). Nobody waits minutes for one, so a host holds it for
// another engine's work at most SchedulingConfig::sideCallMaxWait (issue 31).
//
// Known by the client app the relay recognises and the body: few tokens asked for (at most
// MaxTokens), or, for the agents whose every turn carries tools (Claude Code, opencode), no
// tools. Anything else, an unknown client included, is a turn.
struct SideCall
{
    static constexpr qint64 MaxTokens = 1024;

    static bool is(ClientApp app, qint64 maxTokens, bool tools);
};

} // namespace switchyard
