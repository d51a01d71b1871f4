#pragma once

#include <QDialog>

#include <functional>

class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace switchyard {

class HostProbe;

// "Add a GPU box": its URL and optional API key, tested at once (HostProbe: reachable, router
// or single-model server, its models and their context sizes), what was found shown, and only
// then saved to the config file (ConfigWriter: atomic, the previous file kept as .bak). A file
// written by hand is not rewritten without asking what would change.
class AddHostDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AddHostDialog)

public:
    // configPath: the file to add the host to (created when missing).
    explicit AddHostDialog(const QString &configPath, QWidget *parent = nullptr);
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

    // Asks the user before rewriting a hand-edited file (a question box; tests answer it).
    void setConfirm(std::function<bool(const QString &question)> confirm) { m_confirm = std::move(confirm); }

    void check();
    void accept() override;

private:
    void showResult();
    void fieldsEdited();

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
    bool m_nameEdited = false;
    std::function<bool(const QString &)> m_confirm;
};

} // namespace switchyard
