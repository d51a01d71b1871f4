#include "common/jsonwriter.h"

#include "common/jsontext.h"

#include <utility>

namespace switchyard {

JsonWriter &JsonWriter::beginObject()
{
    return open('{');
}

JsonWriter &JsonWriter::endObject()
{
    return close('}');
}

JsonWriter &JsonWriter::beginArray()
{
    return open('[');
}

JsonWriter &JsonWriter::endArray()
{
    return close(']');
}

JsonWriter &JsonWriter::key(const char *name)
{
    return key(QString::fromLatin1(name));
}

JsonWriter &JsonWriter::key(QStringView name)
{
    beforeValue();
    m_out += JsonText::quote(name);
    m_out += m_layout == Layout::Indented ? ": " : ":";
    m_afterKey = true;
    return *this;
}

JsonWriter &JsonWriter::string(QStringView text)
{
    beforeValue();
    m_out += JsonText::quote(text);
    return *this;
}

JsonWriter &JsonWriter::string(const char *ascii)
{
    return string(QString::fromLatin1(ascii));
}

JsonWriter &JsonWriter::integer(qint64 number)
{
    beforeValue();
    m_out += QByteArray::number(number);
    return *this;
}

JsonWriter &JsonWriter::number(double number)
{
    beforeValue();
    m_out += JsonText::number(number);
    return *this;
}

JsonWriter &JsonWriter::real(double number)
{
    beforeValue();
    m_out += JsonText::real(number);
    return *this;
}

JsonWriter &JsonWriter::boolean(bool flag)
{
    beforeValue();
    m_out += flag ? "true" : "false";
    return *this;
}

JsonWriter &JsonWriter::null()
{
    beforeValue();
    m_out += "null";
    return *this;
}

JsonWriter &JsonWriter::raw(const QByteArray &json)
{
    beforeValue();
    m_out += json;
    return *this;
}

QByteArray JsonWriter::take()
{
    m_empty.clear();
    m_afterKey = false;
    return std::exchange(m_out, {});
}

// A member's value follows its key; anything else in a container is preceded by a comma after
// the first, and in the indented layout starts a line of its own.
void JsonWriter::beforeValue()
{
    if (m_afterKey) {
        m_afterKey = false;
        return;
    }
    if (m_empty.empty())
        return;
    if (!m_empty.back())
        m_out += ',';
    m_empty.back() = false;
    newLine(m_empty.size());
}

JsonWriter &JsonWriter::open(char bracket)
{
    beforeValue();
    m_out += bracket;
    m_empty.push_back(true);
    return *this;
}

// A container with members closes on a line of its own; an empty one stays {} or [].
JsonWriter &JsonWriter::close(char bracket)
{
    if (!m_empty.back())
        newLine(m_empty.size() - 1);
    m_out += bracket;
    m_empty.pop_back();
    return *this;
}

void JsonWriter::newLine(std::size_t depth)
{
    if (m_layout != Layout::Indented)
        return;
    m_out += '\n';
    m_out += QByteArray(qsizetype(2 * depth), ' ');
}

} // namespace switchyard
