#pragma once

#include <QByteArray>
#include <QByteArrayView>

#include <algorithm>
#include <cstring>

namespace switchyard {

// Builds an HTTP head (or any short byte string) in one allocation: the caller says how many
// bytes it expects, then adds the parts. QByteArray::append checks capacity and aliasing on each
// call, which for the twenty-odd parts of a head cost more than the copying. A wrong estimate
// only costs a reallocation.
class HeadBuilder
{
public:
    explicit HeadBuilder(qsizetype expected)
        : m_bytes(std::max<qsizetype>(expected, 64), Qt::Uninitialized)
    {
    }

    HeadBuilder &add(QByteArrayView part)
    {
        reserveMore(part.size());
        if (!part.isEmpty())
            std::memcpy(m_bytes.data() + m_size, part.data(), size_t(part.size()));
        m_size += part.size();
        return *this;
    }
    HeadBuilder &add(char c)
    {
        reserveMore(1);
        m_bytes.data()[m_size++] = c;
        return *this;
    }

    QByteArray take()
    {
        m_bytes.truncate(m_size);
        return std::move(m_bytes);
    }

private:
    void reserveMore(qsizetype count)
    {
        if (m_size + count > m_bytes.size())
            m_bytes.resize(std::max(m_bytes.size() * 2, m_size + count));
    }

    QByteArray m_bytes;
    qsizetype m_size = 0;
};

} // namespace switchyard
