#pragma once

#include "config/configwriter.h"

#include <QDialog>

#include <functional>
#include <optional>
#include <utility>

class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace switchyard {

class HostProbe;

// "Add a GPU box": its URL and optional API key, tested at once (HostProbe: reachable, router
// or single-model server, its models and their context sizes), what was found shown, and only
// then saved to the config file (ConfigWriter: atomic, the previous file kept as .bak). A file
// written by hand is not rewritten without asking what would change. The hosts editor uses the
// same flow (Target::Editor): the checked host is handed back for its list, nothing is written. A
// box whose address a host already has is refused, naming that host.
class AddHostDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AddHostDialog)

public:
    enum class Target { ConfigFile, Editor };
    // Each host's engine URLs.
    using ExistingHosts = QList<std::pair<QString, QStringList>>;

    // configPath: the file to add the host to (created when missing). Editor: the file the
    // editor saves to; this dialog writes nothing and accept() leaves the host in checkedHost().
    explicit AddHostDialog(const QString &configPath, QWidget *parent = nullptr, Target target = Target::ConfigFile);
    ~AddHostDialog() override;

    QLineEdit *urlField() const { return m_url; }
    QLineEdit *apiKeyField() const { return m_apiKey; }
    QLineEdit *nameField() const { return m_name; }
    QPushButton *checkButton() const { return m_check; }
    QPushButton *saveButton() const { return m_save; }
    QLabel *findings() const { return m_findings; }
    QTableWidget *modelsTable() const { return m_models; }
    HostProbe *probe() const { return m_probe; }
    QString configPath() const { return m_path; }
    // The host's name as saved, after accept().
    QString savedHost() const { return m_savedHost; }
    // The host as checked, after accept() (Target::Editor).
    ConfigWriter::NewHost checkedHost() const { return m_checkedHost; }
    // The hosts there are already (Target::Editor: the editor's, unsaved ones included); without
    // it they are read from the file at each check.
    void setExistingHosts(const ExistingHosts &hosts) { m_existing = hosts; }

    // Asks the user before rewriting a hand-edited file (a question box; tests answer it).
    void setConfirm(std::function<bool(const QString &question)> confirm) { m_confirm = std::move(confirm); }

    void check();
    void accept() override;

private:
    void showResult();
    void fieldsEdited();
    ExistingHosts existingHosts() const;
    // The host that already has url, or empty.
    QString hostWithAddress(const QString &url) const;
    bool refuseKnownAddress();

    QString m_path;
    HostProbe *m_probe;
    QLineEdit *m_url;
    QLineEdit *m_apiKey;
    QLineEdit *m_name;
    QPushButton *m_check;
    QPushButton *m_save;
    QLabel *m_findings;
    QTableWidget *m_models;
    QString m_checkedUrl;   // what the last good probe was for; editing the URL asks again
    QString m_savedHost;
    Target m_target;
    std::optional<ExistingHosts> m_existing;
    ConfigWriter::NewHost m_checkedHost;
    bool m_nameEdited = false;
    std::function<bool(const QString &)> m_confirm;
};

} // namespace switchyard
