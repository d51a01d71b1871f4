#include "fakejsonwriter.h"

#include "common/jsontext.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>

#include <cmath>
#include <utility>

namespace switchyard::fake {

FakeJsonWriter &FakeJsonWriter::beginObject()
{
    beforeValue();
    m_out += '{';
    m_first.push_back(true);
    return *this;
}

FakeJsonWriter &FakeJsonWriter::endObject()
{
    m_out += '}';
    m_first.pop_back();
    return *this;
}

FakeJsonWriter &FakeJsonWriter::beginArray()
{
    beforeValue();
    m_out += '[';
    m_first.push_back(true);
    return *this;
}

FakeJsonWriter &FakeJsonWriter::endArray()
{
    m_out += ']';
    m_first.pop_back();
    return *this;
}

FakeJsonWriter &FakeJsonWriter::key(const char *name)
{
    return key(QString::fromLatin1(name));
}

FakeJsonWriter &FakeJsonWriter::key(const QString &name)
{
    beforeValue();
    m_out += quote(name);
    m_out += ':';
    m_afterKey = true;
    return *this;
}

FakeJsonWriter &FakeJsonWriter::string(const QString &text)
{
    beforeValue();
    m_out += quote(text);
    return *this;
}

FakeJsonWriter &FakeJsonWriter::string(const char *ascii)
{
    return string(QString::fromLatin1(ascii));
}

FakeJsonWriter &FakeJsonWriter::integer(qint64 number)
{
    beforeValue();
    m_out += QByteArray::number(number);
    return *this;
}

FakeJsonWriter &FakeJsonWriter::real(double number)
{
    beforeValue();
    m_out += FakeJsonWriter::number(number);
    return *this;
}

FakeJsonWriter &FakeJsonWriter::boolean(bool flag)
{
    beforeValue();
    m_out += flag ? QByteArrayLiteral("true") : QByteArrayLiteral("false");
    return *this;
}

FakeJsonWriter &FakeJsonWriter::null()
{
    beforeValue();
    m_out += QByteArrayLiteral("null");
    return *this;
}

FakeJsonWriter &FakeJsonWriter::raw(const QByteArray &json)
{
    beforeValue();
    m_out += json;
    return *this;
}

FakeJsonWriter &FakeJsonWriter::value(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        return null();
    case QJsonValue::Bool:
        return boolean(value.toBool());
    case QJsonValue::Double: {
        const double d = value.toDouble();
        if (std::floor(d) == d && std::abs(d) < 9e15)
            return integer(static_cast<qint64>(d));
        return real(d);
    }
    case QJsonValue::String:
        return string(value.toString());
    case QJsonValue::Array:
        return raw(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    case QJsonValue::Object:
        return raw(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    }
    return null();
}

QByteArray FakeJsonWriter::take()
{
    m_first.clear();
    m_afterKey = false;
    return std::exchange(m_out, {});
}

void FakeJsonWriter::beforeValue()
{
    if (m_afterKey) {
        m_afterKey = false;
        return;
    }
    if (m_first.empty())
        return;
    if (!m_first.back())
        m_out += ',';
    m_first.back() = false;
}

QByteArray FakeJsonWriter::quote(const QString &text)
{
    return JsonText::quote(text);
}

QByteArray FakeJsonWriter::number(double value)
{
    if (!std::isfinite(value))
        return QByteArrayLiteral("null"); // what nlohmann writes for nan and inf
    const double magnitude = std::abs(value);
    const bool fixed = magnitude == 0.0 || (magnitude >= 1e-5 && magnitude < 1e15);
    QByteArray s = QByteArray::number(value, fixed ? 'f' : 'g', QLocale::FloatingPointShortest);
    if (!s.contains('.') && !s.contains('e'))
        s += ".0";
    return s;
}

} // namespace switchyard::fake
