#pragma once

#include <QString>

namespace switchyard {

// A secret kept in a file of its own that only its owner may read (0600), so it is in no
// settings file in clear: the desktop's admin token for a watched relay, as the relay's config
// keeps its tokens (token_file). Written atomically; the file holds the secret and a newline.
class SecretFile final
{
public:
    // Writes secret to path, readable and writable by the owner only; false with *error on failure.
    static bool write(const QString &path, const QString &secret, QString *error = nullptr);
    // The file's first line, trimmed; empty when it cannot be read.
    static QString read(const QString &path);

    SecretFile() = delete;
};

} // namespace switchyard
