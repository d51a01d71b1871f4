#include "export/samplerwords.h"

namespace switchyard {

QStringList SamplerWords::found(QStringView name)
{
    QStringList result;
    for (const Word &w : words) {
        const QString word = QString::fromLatin1(w.word);
        if (name.contains(word, Qt::CaseInsensitive))
            result.append(word);
    }
    return result;
}

bool SamplerWords::choosesTopP(QStringView id)
{
    for (const Word &w : words) {
        if (w.inId && id.contains(QString::fromLatin1(w.word), Qt::CaseInsensitive))
            return true;
    }
    return false;
}

QString SamplerWords::safeKey(const QString &name)
{
    QString key = name;
    // A replacement never contains a word, but it can form one with its neighbours
    // ("qwenwen" -> "qwen"): repeat until nothing is left (each pass shortens the key).
    bool changed = true;
    while (changed) {
        changed = false;
        for (const Word &w : words) {
            const QString word = QString::fromLatin1(w.word);
            if (key.contains(word, Qt::CaseInsensitive)) {
                key.replace(word, QString::fromLatin1(w.replacement), Qt::CaseInsensitive);
                changed = true;
            }
        }
    }
    return key;
}

} // namespace switchyard
