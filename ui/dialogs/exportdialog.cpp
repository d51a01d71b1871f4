#include "dialogs/exportdialog.h"

#include "export/samplerwords.h"
#include "shared/clientconfigexporter.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QVBoxLayout>

namespace switchyard {

using namespace Qt::StringLiterals;

ExportDialog::ExportDialog(const QUrl &endpoint, const QString &apiKey, const QStringList &aliases, QWidget *parent)
    : QDialog(parent)
    , m_exporter(new ClientConfigExporter(this))
    , m_client(new QComboBox(this))
    , m_model(new QComboBox(this))
    , m_form(new QFormLayout)
    , m_tiers(new QWidget(this))
    , m_renameNote(new QLabel(this))
    , m_fileHint(new QLabel(this))
    , m_aliases(aliases)
    , m_shell(new QCheckBox(tr("As shell &commands (export NAME=value, cline auth)"), this))
    , m_codexCatalog(new QCheckBox(tr("Codex: write its model c&atalog too (each model's context window, no "
                                      "\"model metadata not found\" warning)"), this))
    , m_preview(new QPlainTextEdit(this))
    , m_status(new QLabel(this))
    , m_copy(new QPushButton(tr("&Copy"), this))
    , m_save(new QPushButton(tr("&Save As…"), this))
    , m_merge(new QPushButton(tr("&Merge Into…"), this))
{
    setWindowTitle(tr("Export Client Config"));
    m_exporter->setEndpoint(endpoint);
    m_exporter->setApiKey(apiKey);

    for (const ClientConfigExporter::Client &c : ClientConfigExporter::clients())
        m_client->addItem(c.title, c.id);
    m_model->addItem(tr("The first loaded model"), QString());
    for (const QString &alias : aliases)
        m_model->addItem(alias, alias);
    // Claude Code's opus, sonnet and haiku tiers, each its own model if wanted.
    auto *tierRow = new QHBoxLayout(m_tiers);
    tierRow->setContentsMargins(0, 0, 0, 0);
    const QStringList tierTitles{tr("Opus:"), tr("Sonnet:"), tr("Haiku:")};
    for (const QString &title : tierTitles) {
        auto *box = new QComboBox(m_tiers);
        box->addItem(tr("as the default"), QString());
        for (const QString &alias : aliases)
            box->addItem(alias, alias);
        auto *label = new QLabel(title, m_tiers);
        label->setBuddy(box);
        tierRow->addWidget(label);
        tierRow->addWidget(box, 1);
        m_tierBoxes.append(box);
        connect(box, &QComboBox::currentIndexChanged, this, &ExportDialog::refresh);
    }
    m_tiers->setToolTip(tr("The models Claude Code uses for its opus, sonnet and haiku tiers (haiku also for its "
                           "small, fast requests). One model for all keeps a one-model router from swapping."));
    for (QLabel *label : {m_renameNote, m_fileHint}) {
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    m_renameNote->setForegroundRole(QPalette::PlaceholderText);
    m_preview->setReadOnly(true);
    m_preview->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_preview->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_status->setWordWrap(true);
    m_codexCatalog->setToolTip(tr("Writes switchyard-models.json next to Codex's config.toml as soon as it is "
                                  "ticked, and names it in the config. It carries Codex 0.169.0's own base "
                                  "prompt, which another Codex version is sent too."));
    m_merge->setToolTip(tr("Add the relay's provider to the client's existing config file, keeping everything "
                           "else; the result is shown here and written when you save it"));

    QFormLayout *form = m_form;
    form->addRow(tr("C&lient:"), m_client);
    form->addRow(tr("&Default model:"), m_model);
    form->addRow(tr("Claude Code &tiers:"), m_tiers);
    form->addRow(QString(), m_shell);
    form->addRow(QString(), m_codexCatalog);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_copy, QDialogButtonBox::ActionRole);
    buttons->addButton(m_save, QDialogButtonBox::ActionRole);
    buttons->addButton(m_merge, QDialogButtonBox::ActionRole);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_renameNote);   // outside the form: see showRow()
    layout->addWidget(m_preview, 1);
    layout->addWidget(m_fileHint);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(720, 560);

    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_client, &QComboBox::currentIndexChanged, this, [this] {
        m_mergeFile.clear();
        refresh();
    });
    connect(m_model, &QComboBox::currentIndexChanged, this, &ExportDialog::refresh);
    connect(m_shell, &QCheckBox::toggled, this, &ExportDialog::refresh);
    updateNotes();
    connect(m_codexCatalog, &QCheckBox::toggled, this, &ExportDialog::refresh);
    connect(m_copy, &QPushButton::clicked, this, [this] {
        QApplication::clipboard()->setText(m_preview->toPlainText());
        m_status->setText(tr("Copied to the clipboard."));
    });
    connect(m_save, &QPushButton::clicked, this, &ExportDialog::chooseSaveFile);
    connect(m_merge, &QPushButton::clicked, this, &ExportDialog::chooseMergeFile);
    connect(m_exporter, &ClientConfigExporter::finished, this, [this](const QString &, bool ok, const QString &text) {
        if (m_refreshAgain) {
            m_refreshAgain = false;
            refresh();
            return;
        }
        m_preview->setPlainText(ok ? text : QString());
        if (!ok)
            m_status->setText(tr("The export failed: %1").arg(text));
        else if (!m_mergeFile.isEmpty())
            m_status->setText(tr("Merged with %1; Save writes the result back to it.").arg(m_mergeFile));
        else if (client() == "codex"_L1 && m_codexCatalog->isChecked())
            m_status->setText(tr("Wrote Codex's model catalog to %1.").arg(codexCatalogFile()));
        else
            m_status->clear();
        m_copy->setEnabled(ok);
        m_save->setEnabled(ok);
        emit exported(ok);
    });
    // On the next turn of the event loop, once whoever made the dialog has finished setting it up.
    QMetaObject::invokeMethod(this, &ExportDialog::refresh, Qt::QueuedConnection);
}

namespace {

bool hasShellForm(const QString &client)
{
    return client == "claude-code"_L1 || client == "cline"_L1 || client == "qwen"_L1;
}

// Not QFormLayout::setRowVisible, and no word-wrapped label in the form: with hidden rows and a
// label that has a height for its width, Qt 6.4's QFormLayout::heightForWidth writes past its
// arrays (valgrind). Hidden widgets take no room.
void showRow(QFormLayout *form, QWidget *field, bool shown)
{
    if (QWidget *label = form->labelForField(field))
        label->setVisible(shown);
    field->setVisible(shown);
}

bool isMergeable(const QString &client)
{
    return client == "opencode"_L1 || client == "codex"_L1 || client == "cline"_L1 || client == "qwen"_L1;
}

} // namespace

QString ExportDialog::client() const
{
    return m_client->currentData().toString();
}

void ExportDialog::setClient(const QString &client)
{
    const int index = m_client->findData(client);
    if (index >= 0)
        m_client->setCurrentIndex(index);
}

QString ExportDialog::preview() const
{
    return m_preview->toPlainText();
}

QComboBox *ExportDialog::tierBox(const QString &tier) const
{
    const qsizetype at = QStringList{u"opus"_s, u"sonnet"_s, u"haiku"_s}.indexOf(tier);
    return at < 0 ? nullptr : m_tierBoxes.value(at);
}

bool ExportDialog::tiersShown() const
{
    return !m_tiers->isHidden();
}

void ExportDialog::updateNotes()
{
    const QString c = client();
    showRow(m_form, m_tiers, c == "claude-code"_L1);
    // opencode picks samplers by name: its keys leave those words out (docs/CLIENTS.md).
    QStringList renamed;
    for (const QString &alias : std::as_const(m_aliases)) {
        const QString key = SamplerWords::safeKey(alias);
        if (key != alias && renamed.size() < 3)
            renamed.append(tr("%1 is the key %2").arg(alias, key));
    }
    const bool note = c == "opencode"_L1 && !renamed.isEmpty();
    if (note)
        m_renameNote->setText(tr("opencode chooses sampler settings by a model's name, which would override the "
                                 "host's presets: the config's keys leave those words out (%1). The \"id\" opencode "
                                 "sends is still the alias.").arg(renamed.join(u"; "_s)));
    m_renameNote->setVisible(note);

    const QString file = QDir::toNativeSeparators(defaultFileName()).replace(QDir::homePath(), u"~"_s);
    QString hint;
    if (c == "claude-code"_L1)
        hint = m_shell->isChecked() ? tr("Add these lines to your shell's profile (~/.profile or ~/.bashrc).")
                                    : tr("Claude Code reads ~/.claude/settings.json: copy the \"env\" block into it, "
                                         "or save this as that file if you have none.");
    else if (c == "cline"_L1 && m_shell->isChecked())
        hint = tr("Run this command once: it writes Cline's provider settings.");
    else if (hasShellForm(c) && m_shell->isChecked())
        hint = tr("Add these lines to your shell's profile (~/.profile or ~/.bashrc).");
    else if (isMergeable(c))
        hint = tr("%1 reads %2: Merge Into… adds the relay to it and keeps your settings; Save As… writes a "
                  "new file.").arg(m_client->currentText(), file);
    else
        hint = tr("%1 reads %2: Save As… writes it there.").arg(m_client->currentText(), file);
    m_fileHint->setText(hint);
}

void ExportDialog::refresh()
{
    const QString c = client();
    updateNotes();
    m_shell->setEnabled(hasShellForm(c));
    m_codexCatalog->setEnabled(c == "codex"_L1);
    m_merge->setEnabled(isMergeable(c) && !(hasShellForm(c) && m_shell->isChecked()));
    m_copy->setEnabled(false);
    m_save->setEnabled(false);
    if (m_exporter->isRunning()) {
        m_refreshAgain = true;   // the options changed while it ran: its answer is stale
        return;
    }
    QStringList extra;
    if (const QString model = m_model->currentData().toString(); !model.isEmpty())
        extra << u"--model"_s << model;
    if (c == "claude-code"_L1) {
        const QStringList flags{u"--opus"_s, u"--sonnet"_s, u"--haiku"_s};
        for (qsizetype i = 0; i < m_tierBoxes.size(); ++i) {
            if (const QString tier = m_tierBoxes.at(i)->currentData().toString(); !tier.isEmpty())
                extra << flags.at(i) << tier;
        }
    }
    if (hasShellForm(c) && m_shell->isChecked())
        extra << u"--shell"_s;
    else if (isMergeable(c) && !m_mergeFile.isEmpty())
        extra << u"--merge"_s << m_mergeFile;
    if (c == "codex"_L1 && m_codexCatalog->isChecked()) {
        QDir().mkpath(QFileInfo(codexCatalogFile()).absolutePath());
        extra << u"--catalog"_s << codexCatalogFile();
    }
    m_status->setText(tr("Asking the relay for its models…"));
    m_exporter->start(c, extra);
}

void ExportDialog::mergeInto(const QString &file)
{
    if (!isMergeable(client()))
        setClient(u"opencode"_s);
    m_mergeFile = file;
    refresh();
}

QString ExportDialog::codexCatalogFile() const
{
    const QString config = m_mergeFile.isEmpty() ? QDir::home().filePath(u".codex/config.toml"_s) : m_mergeFile;
    return QFileInfo(config).absoluteDir().filePath(u"switchyard-models.json"_s);
}

QString ExportDialog::defaultFileName() const
{
    const QString c = client();
    if (!m_mergeFile.isEmpty())
        return m_mergeFile;
    if (c == "opencode"_L1)
        return QDir::home().filePath(u".config/opencode/opencode.json"_s);
    if (c == "pi"_L1)
        return QDir::home().filePath(u".pi/agent/models.json"_s);
    if (c == "codex"_L1)
        return QDir::home().filePath(u".codex/config.toml"_s);
    if (c == "cline"_L1 && !m_shell->isChecked())
        return QDir::home().filePath(u".cline/data/settings/providers.json"_s);
    if (c == "qwen"_L1 && !m_shell->isChecked())
        return QDir::home().filePath(u".qwen/settings.json"_s);
    if (c != "claude-code"_L1)
        return QDir::home().filePath(u"switchyard-%1.sh"_s.arg(c));
    return QDir::home().filePath(m_shell->isChecked() ? u"switchyard-claude.sh"_s : u"claude-settings.json"_s);
}

void ExportDialog::chooseMergeFile()
{
    const QString file = QFileDialog::getOpenFileName(this, tr("Merge Into the Client's Config"),
                                                      QFileInfo(defaultFileName()).absolutePath(),
                                                      tr("Configs (*.json *.jsonc *.toml);;All files (*)"));
    if (!file.isEmpty())
        mergeInto(file);
}

void ExportDialog::chooseSaveFile()
{
    const QString file = QFileDialog::getSaveFileName(this, tr("Save Client Config"), defaultFileName());
    if (!file.isEmpty())
        save(file);
}

bool ExportDialog::save(const QString &file)
{
    // Whole or not at all: an existing config is never left half-written.
    QSaveFile out(file);
    if (!QDir().mkpath(QFileInfo(file).absolutePath()) || !out.open(QIODevice::WriteOnly)
        || out.write(m_preview->toPlainText().toUtf8()) < 0 || !out.commit()) {
        m_status->setText(tr("Could not save %1: %2").arg(file, out.errorString()));
        return false;
    }
    m_saveTarget = file;
    m_status->setText(tr("Saved %1.").arg(file));
    return true;
}

} // namespace switchyard
