#pragma once

#include <QObject>
#include <QString>

#include <chrono>

class QLocalServer;

namespace switchyard {

// One desktop relay per user and port: the first launch listens on a local socket; a second
// launch (window or --tray) finds it, asks it to show its window, and exits instead of starting
// a second relay. A relay started without --headless but with no display listens too, and
// answers that it has no window. SWITCHYARD_INSTANCE_NAME replaces the socket's name (for tests).
class SingleInstance final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SingleInstance)

public:
    static constexpr std::chrono::milliseconds DefaultTimeout{1500};

    // What a running instance said when a second launch asked for its window.
    enum class Answer { None, WindowShown, Windowless };

    // "switchyard-<user>-<port>", in $XDG_RUNTIME_DIR when there is one; empty for port 0
    // (every such relay gets its own port, so there is nothing to share), unless the
    // environment names one.
    static QString serverNameFor(quint16 port);

    explicit SingleInstance(QString name, QObject *parent = nullptr);
    ~SingleInstance() override;

    QString name() const { return m_name; }
    // Takes the name. A socket left behind by a crashed instance is removed first; false with
    // *error when another live instance has it.
    bool listen(QString *error);
    bool isListening() const;
    // Answer Windowless instead of WindowShown: this relay runs without a window.
    void setWindowless(bool windowless) { m_windowless = windowless; }

    // Asks a running instance to show its window; None when nobody answered.
    static Answer askRunning(const QString &name, std::chrono::milliseconds timeout = DefaultTimeout);
    // True when a running instance answered.
    static bool activateRunning(const QString &name, std::chrono::milliseconds timeout = DefaultTimeout);

Q_SIGNALS:
    void activationRequested();

private:
    void onNewConnection();

    QString m_name;
    QLocalServer *m_server;
    bool m_windowless = false;
};

} // namespace switchyard
