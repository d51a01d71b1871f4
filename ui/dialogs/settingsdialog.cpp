#include "dialogs/settingsdialog.h"

#include "app/appsettings.h"
#include "config/configloader.h"
#include "tray/autostart.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

QWidget *withButton(QWidget *parent, QLineEdit *field, const QString &text, const std::function<void()> &onClick)
{
    auto *box = new QWidget(parent);
    auto *row = new QHBoxLayout(box);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(field, 1);
    auto *button = new QPushButton(text, box);
    QObject::connect(button, &QPushButton::clicked, box, onClick);
    row->addWidget(button);
    return box;
}

QSpinBox *secondsBox(QWidget *parent, std::optional<std::chrono::seconds> value)
{
    auto *box = new QSpinBox(parent);
    box->setRange(0, 3600);
    box->setSuffix(SettingsDialog::tr(" s"));
    box->setSpecialValueText(SettingsDialog::tr("as in the config"));
    box->setValue(value ? int(value->count()) : 0);
    return box;
}

} // namespace

SettingsDialog::SettingsDialog(AppSettings *settings, Autostart *autostart, const QStringList &overrides, QWidget *parent)
    : QDialog(parent)
    , m_settings(settings)
    , m_autostartFile(autostart)
    , m_listen(new QLineEdit(settings->listen(), this))
    , m_config(new QLineEdit(settings->configPath(), this))
    , m_dataDir(new QLineEdit(settings->dataDir(), this))
    , m_early200(secondsBox(this, settings->early200After()))
    , m_commentEvery(secondsBox(this, settings->commentEvery()))
    , m_autostart(new QCheckBox(tr("Start Switchyard in the tray when I log in"), this))
    , m_editHosts(new QPushButton(tr("&Edit Hosts…"), this))
    , m_runHere(new QRadioButton(tr("&Run the relay here"), this))
    , m_watch(new QRadioButton(tr("Wat&ch the relay at:"), this))
    , m_watchUrl(new QLineEdit(settings->watchUrl(), this))
    , m_watchToken(new QLineEdit(settings->watchToken(), this))
    , m_problems(new QLabel(this))
{
    setWindowTitle(tr("Switchyard Settings"));
    m_listen->setPlaceholderText(tr("from the config file, else 127.0.0.1:18766"));
    m_listen->setToolTip(tr("HOST:PORT, e.g. 0.0.0.0:18766 for the whole LAN, 127.0.0.1:18766 for this machine only"));
    m_config->setPlaceholderText(tr("none: hosts come from --upstream"));
    m_dataDir->setPlaceholderText(tr("the default folder"));
    m_early200->setToolTip(tr("A streaming request that waits this long (for a switch or a load) gets the relay's "
                              "own 200 and keep-alive comments, so clients do not time out"));
    m_commentEvery->setToolTip(tr("How often a waiting stream gets a comment saying what it waits for"));
    m_early200->setWhatsThis(m_early200->toolTip());
    m_commentEvery->setWhatsThis(m_commentEvery->toolTip());
    m_autostart->setChecked(autostart->isEnabled());
    m_autostart->setToolTip(autostart->filePath());

    // A relay elsewhere (headless, by the GPU boxes) shown here through its admin API.
    m_watchUrl->setPlaceholderText(tr("http://gpu-server.lan:18766"));
    m_watchToken->setPlaceholderText(tr("its admin token (none: it must be this machine)"));
    m_watchToken->setEchoMode(QLineEdit::Password);
    m_watchToken->setToolTip(tr("Kept in a file of its own that only you can read, not in the settings file"));
    (settings->watchUrl().isEmpty() ? m_runHere : m_watch)->setChecked(true);
    const auto followChoice = [this] {
        m_watchUrl->setEnabled(m_watch->isChecked());
        m_watchToken->setEnabled(m_watch->isChecked());
    };
    connect(m_watch, &QRadioButton::toggled, this, followChoice);
    followChoice();

    auto *form = new QFormLayout;
    form->addRow(m_runHere);
    form->addRow(m_watch, m_watchUrl);
    form->addRow(tr("Admin &token:"), m_watchToken);
    form->addRow(tr("&Listen on:"), m_listen);
    form->addRow(tr("&Config file:"), withButton(this, m_config, tr("Browse…"), [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Config File"), m_config->text(),
                                                          tr("Switchyard config (*.json);;All files (*)"));
        if (!file.isEmpty())
            m_config->setText(file);
    }));
    m_editHosts->setToolTip(tr("Add, change or remove the config file's hosts and their engines"));
    connect(m_editHosts, &QPushButton::clicked, this, &SettingsDialog::hostsEditorRequested);
    auto *hostsRow = new QHBoxLayout;
    hostsRow->addWidget(m_editHosts);
    hostsRow->addStretch(1);
    form->addRow(tr("Hosts:"), hostsRow);
    form->addRow(tr("&Data folder:"), withButton(this, m_dataDir, tr("Browse…"), [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Data Folder"), m_dataDir->text());
        if (!dir.isEmpty())
            m_dataDir->setText(dir);
    }));
    // Plain words for the early 200 and its keep-alive comments (issue 22, item 15).
    form->addRow(tr("&Answer a waiting stream after:"), m_early200);
    form->addRow(tr("Then tell it it still &waits every:"), m_commentEvery);
    form->addRow(QString(), m_autostart);

    auto *note = new QLabel(this);
    note->setWordWrap(true);
    note->setForegroundRole(QPalette::PlaceholderText);
    QString noteText = tr("Changes apply at once, without dropping a stream; the data folder at the next start. "
                          "These settings are for the window and the tray; --headless reads only its command line "
                          "and config file.");
    if (!overrides.isEmpty())
        noteText += u"\n"_s + tr("This session was started with %1, which wins over these settings until it is "
                                 "started without.").arg(overrides.join(u", "_s));
    note->setText(noteText);

    m_problems->setWordWrap(true);
    m_problems->setTextFormat(Qt::PlainText);
    m_problems->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problems->setStyleSheet(u"color: #cc3d3d"_s);
    m_problems->hide();

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(m_problems);
    layout->addWidget(buttons);
    setMinimumWidth(560);
}

void SettingsDialog::setRunning(const QString &listenInUse, bool demo)
{
    // What this session uses when the fields are empty: its actual address, and in a demo no
    // file at all.
    if (!listenInUse.isEmpty()) {
        m_listen->setPlaceholderText(tr("empty: from the config file (now %1)").arg(listenInUse));
        m_listen->setToolTip(m_listen->toolTip() + u"\n"_s + tr("The relay listens on %1 now.").arg(listenInUse));
    }
    if (demo)
        m_config->setPlaceholderText(tr("none: this session runs the demo fleet"));
}

QStringList SettingsDialog::validate() const
{
    QStringList problems;
    const QString listen = m_listen->text().trimmed();
    if (!listen.isEmpty()) {
        QHostAddress address;
        quint16 port = 0;
        QString why;
        if (!ConfigLoader::parseListen(listen, &address, &port, &why))
            problems.append(tr("Listen on: %1").arg(why));
    }
    if (m_watch->isChecked()) {
        const QUrl url(m_watchUrl->text().trimmed(), QUrl::StrictMode);
        if (!url.isValid() || (url.scheme() != "http"_L1 && url.scheme() != "https"_L1) || url.host().isEmpty())
            problems.append(tr("Watch the relay at: expected a URL such as http://gpu-server.lan:18766, not \"%1\"")
                                .arg(m_watchUrl->text().trimmed()));
    }
    const QString config = m_config->text().trimmed();
    if (!config.isEmpty()) {
        const ConfigResult result = ConfigLoader::load(config);
        for (const ConfigError &e : result.errors)
            problems.append(e.toString());
        if (!result.ok() && result.errors.isEmpty())
            problems.append(tr("%1 could not be read").arg(config));
    }
    return problems;
}

void SettingsDialog::showProblems(const QStringList &problems)
{
    m_problems->setText(problems.join(u'\n'));
    m_problems->setVisible(!problems.isEmpty());
}

bool SettingsDialog::save()
{
    const QStringList problems = validate();
    showProblems(problems);
    if (!problems.isEmpty())
        return false;
    if (m_autostart->isChecked() != m_autostartFile->isEnabled()) {
        QString error;
        if (!m_autostartFile->setEnabled(m_autostart->isChecked(), &error)) {
            showProblems({error});
            return false;
        }
    }
    QString tokenError;
    if (!m_settings->setWatchToken(m_watch->isChecked() ? m_watchToken->text().trimmed() : QString(), &tokenError)) {
        showProblems({tr("The admin token could not be saved: %1").arg(tokenError)});
        return false;
    }
    m_settings->setWatchUrl(m_watch->isChecked() ? m_watchUrl->text().trimmed() : QString());
    m_settings->setListen(m_listen->text().trimmed());
    m_settings->setConfigPath(m_config->text().trimmed());
    m_settings->setDataDir(m_dataDir->text().trimmed());
    auto seconds = [](const QSpinBox *box) {
        return box->value() > 0 ? std::optional<std::chrono::seconds>(box->value()) : std::nullopt;
    };
    m_settings->setEarly200After(seconds(m_early200));
    m_settings->setCommentEvery(seconds(m_commentEvery));
    m_settings->sync();
    emit applied();
    return true;
}

void SettingsDialog::accept()
{
    if (save())
        QDialog::accept();
}

} // namespace switchyard
