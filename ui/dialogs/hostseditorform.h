#pragma once

#include "config/config.h"

#include <QHash>
#include <QWidget>

class QComboBox;
class QGridLayout;
class QLabel;
class QLineEdit;

namespace switchyard {

class HostsEditorModel;

// The fields of one host (name, driver, API key, agent and its token, scheduling, prompt cache,
// idle stop and wake) or of one engine (name, URL, models, argv, start and stop commands, their
// timeouts, idle stop) in the hosts editor: every field the config readers know, each with their
// errors for it shown right under it. Fields another driver uses are shown only when they hold
// something (the readers then say they do not belong). Edits go straight into the model.
class HostsEditorForm final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HostsEditorForm)

public:
    explicit HostsEditorForm(QWidget *parent = nullptr);

    // model must outlive the form, or be cleared with showNothing() first.
    void showHost(HostsEditorModel *model, const QString &host);
    void showEngine(HostsEditorModel *model, const QString &host, const QString &engine);
    void showNothing();

    // Shows each error at its field; returns those no field shows.
    QList<ConfigError> showErrors(const QList<ConfigError> &errors);
    // Focuses the shown field that path is at (or under). False when none is.
    bool focusField(const QString &path);

    // "name" and the JSON keys ("driver", "scheduling.policy", "url", ...); the engine's idle stop
    // is "engine.idle_stop_after_s".
    QWidget *field(const QString &key) const;
    QLabel *errorLabel(const QString &key) const;
    bool isFieldShown(const QString &key) const;
    QString host() const { return m_host; }
    QString engine() const { return m_engine; }

    // argv as one line, and back (QProcess::splitCommand's quoting).
    static QString joinArgv(const QStringList &argv);

Q_SIGNALS:
    void edited();
    // The shown host or engine was renamed (the model has the new name).
    void renamed(const QString &from, const QString &to);

private:
    struct Row
    {
        QWidget *box = nullptr;
        QLabel *label = nullptr;
        QLineEdit *edit = nullptr;
        QComboBox *combo = nullptr;
        QLabel *error = nullptr;
        bool engine = false;
        QString json;   // its key in the host or engine object ("wake.mac": a member of a member)
    };

    void addRow(const QString &key, const QString &label, bool engine, QComboBox *combo = nullptr,
                const QString &json = {});
    void fill();
    void updateRows();
    void fieldEdited(const QString &key);
    QString value(const QString &key) const;
    QString pathOf(const QString &key) const;

    // A grid, not a QFormLayout: Qt 6.4's QFormLayout::heightForWidth writes past its arrays
    // when rows hide and word-wrapped error labels show (seen with valgrind).
    QGridLayout *m_form;
    QHash<QString, Row> m_rows;
    QStringList m_order;
    QLabel *m_hint;
    HostsEditorModel *m_model = nullptr;
    QString m_host;
    QString m_engine;
    QString m_nameClash;   // a taken name typed into Name: not renamed
    bool m_filling = false;
};

} // namespace switchyard
