#pragma once

#include <QString>

#include <cstddef>

namespace switchyard {

// How errors name a field: "hosts.3090.engines.fork.url", "clients.api_keys[2]".

inline QString memberPath(const QString &path, const QString &key)
{
    using namespace Qt::StringLiterals;
    const QString shown = key.isEmpty() ? u"\"\""_s : key;   // an empty key must still show up
    return path.isEmpty() ? shown : path + u'.' + shown;
}

inline QString itemPath(const QString &path, std::size_t index)
{
    return path + u'[' + QString::number(index) + u']';
}

// JSON has no comments; members whose key starts with "//" stand in for them and are ignored.
inline bool isCommentKey(const QString &key)
{
    return key.startsWith(u"//");
}

} // namespace switchyard
