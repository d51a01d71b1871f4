#pragma once

#include <QByteArray>
#include <QJsonValue>
#include <QString>

#include <vector>

namespace switchyard::fake {

// Writes compact JSON in exactly the order it is given. llama.cpp answers with
// nlohmann::ordered_json; QJsonDocument would sort the keys, and the fake must
// match the real server byte for byte.
class FakeJsonWriter final
{
public:
    FakeJsonWriter &beginObject();
    FakeJsonWriter &endObject();
    FakeJsonWriter &beginArray();
    FakeJsonWriter &endArray();

    FakeJsonWriter &key(const char *name); // keys are ASCII literals
    FakeJsonWriter &key(const QString &name);
    FakeJsonWriter &string(const QString &text);
    FakeJsonWriter &string(const char *ascii);
    FakeJsonWriter &integer(qint64 number);
    FakeJsonWriter &real(double number);
    FakeJsonWriter &boolean(bool flag);
    FakeJsonWriter &null();
    FakeJsonWriter &raw(const QByteArray &json); // an already encoded value
    FakeJsonWriter &value(const QJsonValue &value);

    QByteArray take();

    static QByteArray quote(const QString &text);
    // nlohmann's style: shortest round-trip digits, and "1.0" rather than "1".
    static QByteArray number(double value);

private:
    void beforeValue();

    QByteArray m_out;
    std::vector<bool> m_first; // per open container: nothing written yet
    bool m_afterKey = false;
};

} // namespace switchyard::fake
