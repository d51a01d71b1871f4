#pragma once

#include <QDialog>
#include <QUrl>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace switchyard {

class ClientConfigExporter;

// Export Client Config in the window (and from the tray): pick a client, see the config the
// export command prints for this relay, then copy it, save it, or merge it into the client's
// existing config file (opencode, Codex, Cline, Qwen Code; the merged result is previewed
// before Save writes it).
class ExportDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ExportDialog)

public:
    // aliases: every model the relay lists (loaded or not), for the default model choice.
    ExportDialog(const QUrl &endpoint, const QString &apiKey, const QStringList &aliases, QWidget *parent = nullptr);

    ClientConfigExporter *exporter() const { return m_exporter; }

    void setClient(const QString &client);
    // Merges into `file` (for the chosen client when it has a mergeable file, else opencode) and
    // previews the result; Save then writes it back.
    void mergeInto(const QString &file);
    bool save(const QString &file);
    QString preview() const;
    QString saveTarget() const { return m_saveTarget; }
    QPushButton *copyButton() const { return m_copy; }
    QComboBox *modelBox() const { return m_model; }
    // Claude Code's tiers: "opus", "sonnet", "haiku".
    QComboBox *tierBox(const QString &tier) const;
    bool tiersShown() const;
    // Why opencode's keys differ from the aliases, when they do (opencode only).
    QLabel *renameNote() const { return m_renameNote; }
    // Which file the chosen client reads, and how to write it.
    QLabel *fileHint() const { return m_fileHint; }
    QCheckBox *codexCatalogBox() const { return m_codexCatalog; }
    // Where the Codex export writes its model catalog when asked: next to the config.toml it is
    // merged into, else in ~/.codex.
    QString codexCatalogFile() const;

Q_SIGNALS:
    void exported(bool ok);   // the preview has been refreshed (or the export failed)

private:
    QString client() const;
    void refresh();
    void chooseMergeFile();
    void chooseSaveFile();
    QString defaultFileName() const;
    void updateNotes();

    ClientConfigExporter *m_exporter;
    QComboBox *m_client;
    QComboBox *m_model;
    QFormLayout *m_form;
    QWidget *m_tiers;
    QList<QComboBox *> m_tierBoxes;   // opus, sonnet, haiku
    QLabel *m_renameNote;
    QLabel *m_fileHint;
    QStringList m_aliases;
    QCheckBox *m_shell;
    QCheckBox *m_codexCatalog;
    QPlainTextEdit *m_preview;
    QLabel *m_status;
    QPushButton *m_copy;
    QPushButton *m_save;
    QPushButton *m_merge;
    QString m_mergeFile;    // merged into this one: what the preview shows
    QString m_saveTarget;   // where Save last wrote
    bool m_refreshAgain = false;
};

} // namespace switchyard
