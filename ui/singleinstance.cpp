#include "singleinstance.h"

#include <QLocalServer>
#include <QLocalSocket>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

constexpr QByteArrayView ActivateRequest = "activate\n";
constexpr QByteArrayView ActivateReply = "ok\n";

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
    return u"switchyard-%1-%2"_s.arg(user).arg(port);
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

bool SingleInstance::activateRunning(const QString &name, std::chrono::milliseconds timeout)
{
    if (name.isEmpty())
        return false;
    QLocalSocket socket;
    socket.connectToServer(name);
    if (!socket.waitForConnected(int(timeout.count())))
        return false;
    socket.write(ActivateRequest.data(), ActivateRequest.size());
    if (!socket.waitForBytesWritten(int(timeout.count())))
        return false;
    QByteArray reply;
    while (reply.size() < ActivateReply.size() && socket.waitForReadyRead(int(timeout.count())))
        reply += socket.readAll();
    return reply.startsWith(ActivateReply.toByteArray());
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
                socket->write(ActivateReply.data(), ActivateReply.size());
                socket->flush();
                emit activationRequested();
            }
            socket->disconnectFromServer();
        });
    }
}

} // namespace switchyard
