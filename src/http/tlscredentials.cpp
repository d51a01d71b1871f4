#include "http/tlscredentials.h"

#include <QFile>
#include <QFileInfo>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

bool readFile(const QString &path, QByteArray *data, QString *error)
{
    // A regular file of sane size: not a FIFO that blocks, nor /dev/zero.
    const QFileInfo info(path);
    if (info.exists() && (!info.isFile() || info.size() > 1024 * 1024)) {
        *error = u"\"%1\" is not a regular file of at most 1 MiB"_s.arg(path);
        return false;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = u"cannot read \"%1\": %2"_s.arg(path, file.errorString());
        return false;
    }
    *data = file.readAll();
    return true;
}

} // namespace

QList<QSslCertificate> TlsCredentials::readCertificates(const QString &path, QString *error)
{
    QByteArray pem;
    if (!readFile(path, &pem, error))
        return {};
    const QList<QSslCertificate> chain = QSslCertificate::fromData(pem, QSsl::Pem);
    if (chain.isEmpty() || chain.first().isNull())
        *error = u"\"%1\" holds no PEM certificate"_s.arg(path);
    return chain;
}

QSslKey TlsCredentials::readKey(const QString &path, QString *error)
{
    QByteArray pem;
    if (!readFile(path, &pem, error))
        return {};
    for (const QSsl::KeyAlgorithm algorithm : {QSsl::Rsa, QSsl::Ec, QSsl::Dsa}) {
        QSslKey key(pem, algorithm, QSsl::Pem, QSsl::PrivateKey);
        if (!key.isNull())
            return key;
    }
    *error = u"\"%1\" holds no unencrypted PEM private key (RSA, EC or DSA)"_s.arg(path);
    return {};
}

bool TlsCredentials::serverConfiguration(const QString &certPath, const QString &keyPath,
                                         QSslConfiguration *out, QString *error)
{
    QString why;
    const QList<QSslCertificate> chain = readCertificates(certPath, &why);
    if (chain.isEmpty() || chain.first().isNull()) {
        *error = u"tls.cert: "_s + why;
        return false;
    }
    const QSslKey key = readKey(keyPath, &why);
    if (key.isNull()) {
        *error = u"tls.key: "_s + why;
        return false;
    }
    QSslConfiguration config = QSslConfiguration::defaultConfiguration();
    config.setLocalCertificateChain(chain);
    config.setPrivateKey(key);
    // Clients are not asked for certificates: they authenticate with API keys.
    config.setPeerVerifyMode(QSslSocket::VerifyNone);
    *out = config;
    return true;
}

} // namespace switchyard
