#pragma once

#include <QString>
#include <QStringView>

namespace switchyard {

// The program behind a request, as far as its User-Agent tells: the agents people point at the
// relay, the SDKs by language, curl and browsers. Its name is a bounded label (history, request
// log, admin API, metrics), never the free text of the header.
enum class ClientApp {
    ClaudeCode,
    Opencode,
    Pi,   // no User-Agent of its own yet: see clientapp.cpp
    Codex,
    Cline,
    QwenCode,
    OpenAiSdkJs,
    OpenAiSdkPython,
    AnthropicSdkJs,
    AnthropicSdkPython,
    Curl,
    Browser,
    Other,
};

ClientApp clientAppFromUserAgent(QStringView userAgent);

// "claude-code", "openai-sdk-python", "other": lower case, stable across versions.
QString clientAppName(ClientApp app);

} // namespace switchyard
