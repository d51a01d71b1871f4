#pragma once

#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>
#include <QString>

namespace switchyard {

// The relay's HTTPS certificate chain and private key, read from PEM files. check-config reads
// them the same way the server does, so a file that check-config accepts also serves. Its errors
// are English and never translated, like everything the relay says outside the window.
class TlsCredentials final
{
public:
    // The first certificate is the server's, any others its chain. Empty with *error set when the
    // file cannot be read or holds no PEM certificate.
    static QList<QSslCertificate> readCertificates(const QString &path, QString *error);
    // An unencrypted PEM private key (RSA, EC or DSA). Null with *error set otherwise.
    static QSslKey readKey(const QString &path, QString *error);

    // A server configuration for the pair; false with *error set (naming "cert" or "key").
    static bool serverConfiguration(const QString &certPath, const QString &keyPath,
                                    QSslConfiguration *out, QString *error);

    TlsCredentials() = delete;
};

} // namespace switchyard
