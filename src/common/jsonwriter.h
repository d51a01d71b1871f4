#pragma once

#include <QByteArray>
#include <QString>
#include <QStringView>

#include <vector>

namespace switchyard {

// The one JSON writer: members in exactly the order they are given (QJsonDocument would sort
// them), strings and numbers spelled by JsonText. Compact is how llama.cpp answers (the fake
// router must match it byte for byte); Indented is how files people read and edit are written
// (configs, client configs): two spaces a level, one member a line, "key": value, {} and [] when
// empty.
class JsonWriter final
{
public:
    enum class Layout { Compact, Indented };

    explicit JsonWriter(Layout layout = Layout::Compact) : m_layout(layout) {}

    JsonWriter &beginObject();
    JsonWriter &endObject();
    JsonWriter &beginArray();
    JsonWriter &endArray();

    JsonWriter &key(const char *name); // keys are ASCII literals
    JsonWriter &key(QStringView name);
    JsonWriter &string(QStringView text);
    JsonWriter &string(const char *ascii);
    JsonWriter &integer(qint64 number);
    // JsonText::number: a whole number without a fraction ("1").
    JsonWriter &number(double number);
    // JsonText::real: always a fraction or an exponent ("1.0"), as nlohmann::json writes a double.
    JsonWriter &real(double number);
    JsonWriter &boolean(bool flag);
    JsonWriter &null();
    JsonWriter &raw(const QByteArray &json); // an already encoded value

    // What was written; the writer starts again empty.
    QByteArray take();

private:
    JsonWriter &open(char bracket);
    JsonWriter &close(char bracket);
    void beforeValue();
    void newLine(std::size_t depth);

    Layout m_layout;
    QByteArray m_out;
    std::vector<bool> m_empty; // per open container: nothing written in it yet
    bool m_afterKey = false;
};

} // namespace switchyard
