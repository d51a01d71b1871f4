#include "relay/sidecall.h"

namespace switchyard {

bool SideCall::is(ClientApp app, qint64 maxTokens, bool tools)
{
    switch (app) {
    case ClientApp::ClaudeCode:
    case ClientApp::Opencode:
        if (!tools)
            return true;
        [[fallthrough]];
    case ClientApp::Pi:
    case ClientApp::Codex:
    case ClientApp::Cline:
    case ClientApp::QwenCode:
        return maxTokens > 0 && maxTokens <= MaxTokens;
    default:
        return false;   // an SDK, curl or a browser: what it asks for is the user's turn
    }
}

} // namespace switchyard
