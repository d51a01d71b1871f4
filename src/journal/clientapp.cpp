#include "journal/clientapp.h"

#include <array>

namespace switchyard {

namespace {

struct Rule
{
    QStringView prefix;   // the start of the User-Agent, compared without case
    ClientApp app;
};

// First match wins. The agents come first: Claude Code and Qwen Code are built on the SDKs but
// name themselves. pi sends the OpenAI SDK's own User-Agent (OpenAI/JS 6.26.0 in pi 0.73.1), so
// it counts as that SDK: nothing in its requests tells it apart. Claude Code's connectivity
// check (HEAD / with Bun/1.4.0) is "other".
constexpr std::array rules{
    Rule{u"claude-cli/", ClientApp::ClaudeCode},   // claude-cli/2.1.197 (external, sdk-cli)
    Rule{u"opencode/", ClientApp::Opencode},       // opencode/1.18.33 ai-sdk/provider-utils/...
    Rule{u"codex_", ClientApp::Codex},             // codex_cli_rs/0.169.0 (...), codex_exec/...
    Rule{u"cline/", ClientApp::Cline},             // Cline/3.0.65
    Rule{u"qwencode/", ClientApp::QwenCode},       // QwenCode/0.24.4 (linux; x64)
    Rule{u"openai/js", ClientApp::OpenAiSdkJs},
    Rule{u"openai/python", ClientApp::OpenAiSdkPython},
    Rule{u"anthropic/js", ClientApp::AnthropicSdkJs},
    Rule{u"anthropic/python", ClientApp::AnthropicSdkPython},
    Rule{u"curl/", ClientApp::Curl},
    Rule{u"mozilla/", ClientApp::Browser},
};

} // namespace

ClientApp clientAppFromUserAgent(QStringView userAgent)
{
    const QStringView ua = userAgent.trimmed();
    for (const Rule &rule : rules) {
        if (ua.startsWith(rule.prefix, Qt::CaseInsensitive))
            return rule.app;
    }
    return ClientApp::Other;
}

QString clientAppName(ClientApp app)
{
    switch (app) {
    case ClientApp::ClaudeCode: return QStringLiteral("claude-code");
    case ClientApp::Opencode: return QStringLiteral("opencode");
    case ClientApp::Pi: return QStringLiteral("pi");
    case ClientApp::Codex: return QStringLiteral("codex");
    case ClientApp::Cline: return QStringLiteral("cline");
    case ClientApp::QwenCode: return QStringLiteral("qwen-code");
    case ClientApp::OpenAiSdkJs: return QStringLiteral("openai-sdk-js");
    case ClientApp::OpenAiSdkPython: return QStringLiteral("openai-sdk-python");
    case ClientApp::AnthropicSdkJs: return QStringLiteral("anthropic-sdk-js");
    case ClientApp::AnthropicSdkPython: return QStringLiteral("anthropic-sdk-python");
    case ClientApp::Curl: return QStringLiteral("curl");
    case ClientApp::Browser: return QStringLiteral("browser");
    case ClientApp::Other: break;
    }
    return QStringLiteral("other");
}

} // namespace switchyard
