#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QString>
#include <QStringList>
#include <QUrl>

namespace switchyard {

struct JsonNode;

// Writes config files for the desktop (the first run's "Add a GPU box", the hosts editor): a new
// file, a host added to an existing one, or an edited tree, with members, order and "//" comments
// kept. Saving is atomic (QSaveFile) and keeps the previous file as FILE.bak.
class ConfigWriter final
{
    // The config's messages share one translation context, whichever class words them.
    Q_DECLARE_TR_FUNCTIONS(ConfigLoader)

public:
    // A host with one engine, "main", that the relay only forwards to (driver "static").
    struct NewHost
    {
        QString name;
        QUrl url;
        QString apiKey;   // the engines' --api-key; empty: none
    };

    // What adding a host would write, and what it changes beyond the host.
    struct Plan
    {
        QByteArray text;            // the whole new file
        QString error;              // set when nothing can be written (the file does not parse)
        bool newFile = false;       // there was no file (or an empty one)
        // The existing file is not laid out as this writer writes it (hand-edited): writing
        // it again changes its spacing and line breaks. Its members, comments included, stay.
        bool reformats = false;
        int comments = 0;           // "//" members in the existing file (kept)

        bool ok() const { return error.isEmpty(); }
    };

    // ~/.config/switchyard/switchyard.json (the file the systemd units read).
    static QString defaultPath();
    // A host name that follows the rules and is not taken, from the URL's host ("gpu-3090.lan"
    // gives "gpu_3090").
    static QString suggestHostName(const QUrl &url, const QStringList &taken);

    // existing: the file's bytes, empty when there is none.
    static Plan addHost(const QByteArray &existing, const NewHost &host);
    // What writing an edited tree over existing means (the hosts editor): its text, and whether
    // existing was laid out otherwise or holds comments.
    static Plan replace(const QByteArray &existing, const JsonNode &root);
    // Writes text to path atomically; an existing file is first copied to path + ".bak".
    static bool save(const QString &path, const QByteArray &text, QString *error);

    ConfigWriter() = delete;
};

} // namespace switchyard
