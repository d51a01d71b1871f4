#pragma once

#include <QObject>
#include <QStringList>

namespace switchyard::fake {

class FakeLlamaServer;

// `switchyard --demo`: two simulated GPU boxes (fake llama.cpp routers on loopback, with
// realistic load times and token rates) for the relay to stand in front of, so a newcomer can
// try everything without a GPU.
class DemoFleet final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DemoFleet)

public:
    explicit DemoFleet(QObject *parent = nullptr);
    ~DemoFleet() override;

    bool start(QString *error);
    // "--upstream NAME=URL" values for the relay.
    QStringList upstreamFlags() const;

private:
    struct Box
    {
        QString name;
        FakeLlamaServer *server;
    };
    QList<Box> m_boxes;
};

} // namespace switchyard::fake
