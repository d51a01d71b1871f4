#pragma once

#include <QByteArray>
#include <QByteArrayView>

#include <cstring>

namespace switchyard {

// Builds an HTTP head (or any short byte string) in one allocation: the caller says how many
// bytes at most, then adds the parts. QByteArray::append checks capacity and aliasing on each
// call, which for the twenty-odd parts of a head cost more than the copying.
class HeadBuilder
{
public:
    explicit HeadBuilder(qsizetype capacity)
        : m_bytes(capacity, Qt::Uninitialized)
        , m_end(m_bytes.data())
    {
    }

    HeadBuilder &add(QByteArrayView part)
    {
        Q_ASSERT(m_end + part.size() <= m_bytes.data() + m_bytes.size());
        if (!part.isEmpty())
            std::memcpy(m_end, part.data(), size_t(part.size()));
        m_end += part.size();
        return *this;
    }
    HeadBuilder &add(char c)
    {
        Q_ASSERT(m_end < m_bytes.data() + m_bytes.size());
        *m_end++ = c;
        return *this;
    }

    QByteArray take()
    {
        m_bytes.truncate(m_end - m_bytes.constData());
        return std::move(m_bytes);
    }

private:
    QByteArray m_bytes;
    char *m_end;
};

} // namespace switchyard
