#pragma once

#include <QString>
#include <QStringList>
#include <QStringView>

#include <array>

namespace switchyard {

// The words opencode looks for in a model's name to choose sampler settings (`top_p`) that would
// override the host's own presets: `qwen` up to 1.18.x (it then read the config key), the rest in
// 1.18.33 (which reads the model's "id"). The one place this list lives. Each word comes with the
// shorter form that replaces it in a derived config key.
class SamplerWords
{
public:
    struct Word
    {
        const char *word;        // lower case, matched case-insensitively
        const char *replacement; // contains no word of the list
        bool inId;               // opencode 1.18.33 reads it from the model's "id" (not only the key)
    };

    static constexpr std::array<Word, 7> words{{
        {"deepseek-v4-flash", "ds-v4-flash", true},
        {"minimax-m2", "mm2", true},
        {"kimi-k2.5", "kk2.5", true},
        {"kimi-k2p5", "kk2p5", true},
        {"kimi-k2-5", "kk2-5", true},
        {"gemini", "gmn", true},
        {"qwen", "q", false},
    }};

    // The words of the list that name contains, case-insensitively.
    static QStringList found(QStringView name);
    static bool contains(QStringView name) { return !found(name).isEmpty(); }
    // Whether an id (the alias opencode sends) makes opencode 1.18.33 choose a top_p itself.
    static bool choosesTopP(QStringView id);
    // name with every listed word replaced ("3090-qwen38-27b" -> "3090-q38-27b"). The result
    // contains none of the words; a name that contains none comes back unchanged.
    static QString safeKey(const QString &name);
};

} // namespace switchyard
