#include "tray/singleinstance.h"

#include <QDir>
#include <QFileInfo>
#include <QLocalServer>
#include <QLocalSocket>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

constexpr QByteArrayView ActivateRequest = "activate\n";
constexpr QByteArrayView ActivateReply = "ok\n";
constexpr QByteArrayView WindowlessReply = "windowless\n";

} // namespace

QString SingleInstance::serverNameFor(quint16 port)
{
    const QString overridden = qEnvironmentVariable("SWITCHYARD_INSTANCE_NAME");
    if (!overridden.isEmpty())
        return overridden;
    if (port == 0)
        return {};
    QString user = qEnvironmentVariable("USER");
    if (user.isEmpty())
        user = qEnvironmentVariable("LOGNAME");
    if (user.isEmpty())
        user = u"user"_s;
    const QString name = u"switchyard-%1-%2"_s.arg(user).arg(port);
    // The runtime folder is the user's alone and per session; without one, QLocalServer puts a
    // bare name in the temp folder.
    const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (!runtime.isEmpty() && QFileInfo(runtime).isDir())
        return QDir(runtime).filePath(name);
    return name;
}

SingleInstance::SingleInstance(QString name, QObject *parent)
    : QObject(parent)
    , m_name(std::move(name))
    , m_server(new QLocalServer(this))
{
    // Only this user may ask us to do anything.
    m_server->setSocketOptions(QLocalServer::UserAccessOption);
    connect(m_server, &QLocalServer::newConnection, this, &SingleInstance::onNewConnection);
}

SingleInstance::~SingleInstance() = default;

bool SingleInstance::listen(QString *error)
{
    if (m_server->listen(m_name))
        return true;
    if (m_server->serverError() == QAbstractSocket::AddressInUseError && !activateRunning(m_name, std::chrono::milliseconds(300))) {
        // Left behind by an instance that did not shut down: nobody answers on it.
        QLocalServer::removeServer(m_name);
        if (m_server->listen(m_name))
            return true;
    }
    *error = m_server->errorString();
    return false;
}

bool SingleInstance::isListening() const
{
    return m_server->isListening();
}

SingleInstance::Answer SingleInstance::askRunning(const QString &name, std::chrono::milliseconds timeout)
{
    if (name.isEmpty())
        return Answer::None;
    QLocalSocket socket;
    socket.connectToServer(name);
    if (!socket.waitForConnected(int(timeout.count())))
        return Answer::None;
    socket.write(ActivateRequest.data(), ActivateRequest.size());
    if (!socket.waitForBytesWritten(int(timeout.count())))
        return Answer::None;
    QByteArray reply;
    while (!reply.contains('\n') && socket.waitForReadyRead(int(timeout.count())))
        reply += socket.readAll();
    if (reply.startsWith(ActivateReply))
        return Answer::WindowShown;
    if (reply.startsWith(WindowlessReply))
        return Answer::Windowless;
    return Answer::None;
}

bool SingleInstance::activateRunning(const QString &name, std::chrono::milliseconds timeout)
{
    return askRunning(name, timeout) != Answer::None;
}

void SingleInstance::onNewConnection()
{
    while (QLocalSocket *socket = m_server->nextPendingConnection()) {
        connect(socket, &QLocalSocket::disconnected, socket, &QObject::deleteLater);
        connect(socket, &QLocalSocket::readyRead, this, [this, socket] {
            if (!socket->canReadLine()) {
                if (socket->bytesAvailable() > 64)
                    socket->abort();
                return;
            }
            const QByteArray line = socket->readLine();
            if (line == ActivateRequest) {
                const QByteArrayView reply = m_windowless ? WindowlessReply : ActivateReply;
                socket->write(reply.data(), reply.size());
                socket->flush();
                emit activationRequested();
            }
            socket->disconnectFromServer();
        });
    }
}

} // namespace switchyard
