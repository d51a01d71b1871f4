#include "dialogs/addhostdialog.h"

#include "catalog/hostprobe.h"
#include "config/configloader.h"
#include "config/confignames.h"
#include "config/configwriter.h"
#include "config/engineurl.h"
#include "config/hostseditormodel.h"
#include "shared/uiformat.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

QString statusWord(const QString &status)
{
    if (status == "loaded"_L1)
        return AddHostDialog::tr("loaded");
    if (status == "loading"_L1)
        return AddHostDialog::tr("loading");
    if (status == "sleeping"_L1)
        return AddHostDialog::tr("sleeping");
    if (status == "unloaded"_L1)
        return AddHostDialog::tr("not loaded");
    return status;
}

} // namespace

AddHostDialog::AddHostDialog(const QString &configPath, QWidget *parent, Target target)
    : QDialog(parent)
    , m_path(configPath)
    , m_probe(new HostProbe(this))
    , m_url(new QLineEdit(this))
    , m_apiKey(new QLineEdit(this))
    , m_name(new QLineEdit(this))
    , m_check(new QPushButton(tr("&Check"), this))
    , m_save(nullptr)
    , m_findings(new QLabel(this))
    , m_models(new QTableWidget(0, 3, this))
    , m_target(target)
{
    setWindowTitle(tr("Add a GPU Box"));
    m_url->setPlaceholderText(tr("http://gpu-box.lan:8080"));
    m_url->setToolTip(tr("Where llama-server (a router, or a server with one model) answers on that machine"));
    m_apiKey->setPlaceholderText(tr("optional: the server's --api-key"));
    m_apiKey->setEchoMode(QLineEdit::PasswordEchoOnEdit);
    m_name->setPlaceholderText(tr("from the address"));
    m_name->setToolTip(tr("Clients name its models NAME-MODEL; letters, digits, '.' and '_' only"));
    m_findings->setWordWrap(true);
    m_findings->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_findings->setText(tr("Enter the address and press Check: Switchyard asks the box what it serves before "
                           "anything is saved."));
    m_models->setHorizontalHeaderLabels({tr("Model"), tr("Status"), tr("Context")});
    m_models->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_models->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_models->horizontalHeader()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    m_models->verticalHeader()->hide();
    m_models->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_models->setSelectionMode(QAbstractItemView::NoSelection);
    m_models->hide();

    auto *urlRow = new QHBoxLayout;
    urlRow->addWidget(m_url, 1);
    urlRow->addWidget(m_check);
    auto *form = new QFormLayout;
    auto *urlLabel = new QLabel(tr("&Address:"), this);   // a row of a layout has no buddy of its own
    urlLabel->setBuddy(m_url);
    form->addRow(urlLabel, urlRow);
    form->addRow(tr("API &key:"), m_apiKey);
    form->addRow(tr("&Name:"), m_name);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    // For the editor it goes to its list, saved (and started) with the editor's Save.
    m_save = buttons->addButton(target == Target::Editor ? tr("&Add") : tr("&Add and Start"), QDialogButtonBox::AcceptRole);
    m_save->setEnabled(false);
    connect(buttons, &QDialogButtonBox::accepted, this, &AddHostDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &AddHostDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_findings);
    layout->addWidget(m_models, 1);
    auto *where = new QLabel(target == Target::Editor
                                 ? tr("Added to the hosts editor's list; the config goes to %1 when you save there")
                                       .arg(UiFormat::path(m_path))
                                 : tr("Nothing is written until you add it; then the config goes to %1").arg(UiFormat::path(m_path)),
                             this);
    where->setWordWrap(true);
    where->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(where);
    layout->addWidget(buttons);
    resize(560, 420);

    m_check->setDefault(true);
    connect(m_check, &QPushButton::clicked, this, &AddHostDialog::check);
    connect(m_url, &QLineEdit::returnPressed, this, &AddHostDialog::check);
    connect(m_url, &QLineEdit::textEdited, this, &AddHostDialog::fieldsEdited);
    connect(m_apiKey, &QLineEdit::textEdited, this, &AddHostDialog::fieldsEdited);
    connect(m_name, &QLineEdit::textEdited, this, [this] { m_nameEdited = true; });
    connect(m_probe, &HostProbe::finished, this, &AddHostDialog::showResult);
    m_confirm = [this](const QString &question) {
        return QMessageBox::question(this, tr("Rewrite the Config File?"), question,
                                     QMessageBox::Save | QMessageBox::Cancel, QMessageBox::Cancel)
               == QMessageBox::Save;
    };
}

AddHostDialog::~AddHostDialog() = default;

void AddHostDialog::fieldsEdited()
{
    // What was found is for the address it was found at.
    m_save->setEnabled(false);
    m_check->setDefault(true);
    m_checkedUrl.clear();
}

AddHostDialog::ExistingHosts AddHostDialog::existingHosts() const
{
    if (m_existing)
        return *m_existing;
    // The file's tree, not its verdict: a file with errors still has its hosts.
    QFile file(m_path);
    HostsEditorModel model;
    QString error;
    if (!file.open(QIODevice::ReadOnly) || !model.load(file.readAll(), &error))
        return {};
    return model.engineUrls();
}

QString AddHostDialog::hostWithAddress(const QString &url) const
{
    for (const auto &[host, urls] : existingHosts()) {
        for (const QString &existing : urls) {
            if (!existing.trimmed().isEmpty() && EngineUrl::sameAddress(existing, url))
                return host;
        }
    }
    return {};
}

bool AddHostDialog::refuseKnownAddress()
{
    const QString host = hostWithAddress(m_url->text());
    if (host.isEmpty())
        return false;
    // Two hosts on one box would each think they alone switch its models.
    m_findings->setText(tr("Not added: the host \"%1\" already has this address. Edit that host instead, or "
                           "enter another address.").arg(host));
    m_models->hide();
    m_save->setEnabled(false);
    m_checkedUrl.clear();
    return true;
}

void AddHostDialog::check()
{
    if (m_url->text().trimmed().isEmpty()) {
        m_findings->setText(tr("Enter the box's address first, e.g. http://gpu-box.lan:8080"));
        return;
    }
    if (refuseKnownAddress())
        return;
    m_save->setEnabled(false);
    m_check->setEnabled(false);
    m_models->hide();
    m_findings->setText(tr("Asking %1…").arg(m_url->text().trimmed()));
    m_probe->start(m_url->text(), m_apiKey->text());
}

void AddHostDialog::showResult()
{
    m_check->setEnabled(true);
    const HostProbe::Result &r = m_probe->result();
    if (!r.ok()) {
        m_findings->setText(u"<b>%1</b><br>%2"_s.arg(tr("Not added yet.").toHtmlEscaped(), r.error.toHtmlEscaped()));
        m_models->hide();
        return;
    }
    QString what;
    if (r.kind == HostProbe::Kind::Router)
        what = tr("A llama.cpp router with %n model(s).", nullptr, int(r.models.size()));
    else
        what = r.loading ? tr("A llama.cpp server with one model, still loading it.")
                         : tr("A llama.cpp server with one model.");
    if (!r.build.isEmpty())
        what += u' ' + tr("Build %1.").arg(r.build);
    m_findings->setText(u"<b>%1</b> %2"_s.arg(tr("Reachable.").toHtmlEscaped(), what.toHtmlEscaped()));
    m_models->setRowCount(int(r.models.size()));
    for (int row = 0; row < r.models.size(); ++row) {
        const HostProbe::Model &m = r.models.at(row);
        m_models->setItem(row, 0, new QTableWidgetItem(m.key));
        m_models->setItem(row, 1, new QTableWidgetItem(statusWord(m.status)));
        auto *context = new QTableWidgetItem(m.context ? UiFormat::tokens(*m.context) : tr("unknown"));
        if (m.context)
            context->setToolTip(tr("%1 tokens").arg(*m.context));
        m_models->setItem(row, 2, context);
    }
    m_models->setVisible(!r.models.isEmpty());
    QString why;
    if (!m_nameEdited || m_name->text().trimmed().isEmpty()) {
        if (const auto url = EngineUrl::parse(EngineUrl::withScheme(m_url->text()), &why)) {
            QStringList taken;
            for (const auto &existing : existingHosts())
                taken.append(existing.first);
            m_name->setText(ConfigWriter::suggestHostName(*url, taken));
        }
    }
    m_checkedUrl = m_url->text().trimmed();
    m_save->setEnabled(true);
    m_save->setDefault(true);
}

void AddHostDialog::accept()
{
    if (m_checkedUrl.isEmpty() || m_checkedUrl != m_url->text().trimmed()) {
        check();
        return;
    }
    const QString name = m_name->text().trimmed();
    if (!ConfigNames::isValidHostName(name)) {
        m_findings->setText(ConfigNames::invalidHostName(name));
        m_name->setFocus();
        return;
    }
    if (refuseKnownAddress())
        return;
    QString why;
    const std::optional<QUrl> url = EngineUrl::parse(EngineUrl::withScheme(m_checkedUrl), &why);
    if (!url) {
        m_findings->setText(why);
        return;
    }
    if (m_target == Target::Editor) {
        for (const auto &existing : existingHosts()) {
            if (existing.first == name) {
                m_findings->setText(tr("Another host is called \"%1\": choose another name.").arg(name));
                m_name->setFocus();
                return;
            }
        }
        m_checkedHost = {name, *url, m_apiKey->text().trimmed()};
        QDialog::accept();
        return;
    }
    QByteArray existing;
    QFile file(m_path);
    if (file.exists() && !file.open(QIODevice::ReadOnly)) {
        m_findings->setText(tr("Cannot read %1: %2").arg(m_path, file.errorString()));
        return;
    }
    if (file.isOpen())
        existing = file.readAll();
    const ConfigWriter::Plan plan = ConfigWriter::addHost(existing, {name, *url, m_apiKey->text().trimmed()});
    if (!plan.ok()) {
        m_findings->setText(tr("%1 is not changed: %2").arg(m_path, plan.error));
        return;
    }
    if (plan.reformats) {
        QStringList changes{tr("adds the host \"%1\" (%2)").arg(name, url->toString()),
                            tr("lays the file out again: its spacing and line breaks change")};
        if (plan.comments > 0)
            changes.append(tr("keeps its %n comment(s) and every other field", nullptr, plan.comments));
        changes.append(tr("keeps the file as it is now in %1.bak").arg(QFileInfo(m_path).fileName()));
        const QString question = tr("%1 was written by hand. Saving:").arg(m_path) + u"\n• "_s + changes.join(u"\n• "_s);
        if (!m_confirm(question))
            return;
    }
    QString error;
    if (!ConfigWriter::save(m_path, plan.text, &error)) {
        m_findings->setText(error);
        return;
    }
    // What is written must load: a file that does not is put back from the backup.
    const ConfigResult loaded = ConfigLoader::load(m_path);
    if (!loaded.ok()) {
        QStringList lines;
        for (const ConfigError &e : loaded.errors)
            lines.append(e.toString());
        if (plan.newFile)
            QFile::remove(m_path);
        else
            ConfigWriter::save(m_path, existing, &error);
        m_findings->setText(tr("Not saved: the file would not load.") + u'\n' + lines.join(u'\n'));
        return;
    }
    m_savedHost = name;
    QDialog::accept();
}

} // namespace switchyard
