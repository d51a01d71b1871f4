#include "dialogs/hostseditorform.h"

#include "config/hostseditormodel.h"

#include <QComboBox>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QVBoxLayout>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

const QString Name = u"name"_s;
// The engine's own idle stop: its row key differs from the host's, its JSON key does not.
const QString EngineIdle = u"engine.idle_stop_after_s"_s;

// A program and its arguments, typed as one line.
bool isCommandKey(const QString &json)
{
    return json == u"argv" || json == u"sleep_command";
}

bool isUnder(const QString &path, const QString &field)
{
    return path == field || path.startsWith(field + u'.') || path.startsWith(field + u'[');
}

} // namespace

HostsEditorForm::HostsEditorForm(QWidget *parent)
    : QWidget(parent)
    , m_form(new QGridLayout)
    , m_hint(new QLabel(this))
{
    auto *driver = new QComboBox(this);
    driver->setEditable(true);   // a driver the file names wrongly shows as it is, with its error
    driver->addItems({u"static"_s, u"local"_s, u"agent"_s, u"command"_s});
    driver->setToolTip(tr("static: the relay only forwards to a running server. local: it starts and stops "
                          "llama-server on this machine. agent: through `switchyard agent` on the GPU box. "
                          "command: with your own start and stop commands."));
    auto *policy = new QComboBox(this);
    policy->setEditable(true);   // a policy the file names wrongly shows as it is, with its error
    policy->addItems({QString(), u"batch"_s, u"arrival"_s});
    policy->setToolTip(tr("batch (the default): the running engine keeps the host while it has work; a request for "
                          "another engine waits at most the longest wait. arrival: strictly in arrival order, a "
                          "switch for every change of engine"));

    addRow(Name, tr("&Name:"), false);
    addRow(u"driver"_s, tr("&Driver:"), false, driver);
    addRow(u"api_key"_s, tr("&API key:"), false);
    addRow(u"agent"_s, tr("A&gent URL:"), false);
    addRow(u"token"_s, tr("Agent &token:"), false);
    // Every other field the config readers know (issue 30): none of them is left to the file alone.
    addRow(u"scheduling.policy"_s, tr("Scheduling policy:"), false, policy);
    addRow(u"scheduling.dwell_s"_s, tr("Dwell after the last request (s):"), false);
    addRow(u"scheduling.max_wait_s"_s, tr("Longest wait for a switch (s):"), false);
    addRow(u"scheduling.side_call_max_wait_s"_s, tr("Longest wait of a side call (s):"), false);
    addRow(u"prompt_cache.dir"_s, tr("Prompt cache folder:"), false);
    addRow(u"prompt_cache.max_size_mb"_s, tr("Prompt cache size (MB):"), false);
    addRow(u"prompt_cache.save_budget_s"_s, tr("Prompt cache save budget (s):"), false);
    // Wake and idle: written through to the JSON as typed; the config readers judge them.
    addRow(u"idle_stop_after_s"_s, tr("Stop when &idle after (s):"), false);
    addRow(u"sleep_command"_s, tr("S&leep command:"), false);
    addRow(u"wake.mac"_s, tr("&Wake-on-LAN MAC:"), false);
    addRow(u"wake.broadcast"_s, tr("Wake &broadcast:"), false);
    addRow(u"wake.port"_s, tr("Wake &port:"), false);
    addRow(u"wake.timeout_s"_s, tr("Wake time&out (s):"), false);
    addRow(u"url"_s, tr("&URL:"), true);
    addRow(u"models"_s, tr("&Models:"), true);
    addRow(u"argv"_s, tr("&Command line:"), true);
    addRow(u"start"_s, tr("&Start command:"), true);
    addRow(u"stop"_s, tr("St&op command:"), true);
    addRow(u"start_timeout_s"_s, tr("Start timeout (s):"), true);
    addRow(u"stop_timeout_s"_s, tr("Stop timeout (s):"), true);
    addRow(EngineIdle, tr("Stop when idle after (s):"), true, nullptr, u"idle_stop_after_s"_s);

    m_rows[u"api_key"_s].edit->setEchoMode(QLineEdit::PasswordEchoOnEdit);
    m_rows[u"api_key"_s].edit->setPlaceholderText(tr("none (the engines' --api-key, if they have one)"));
    m_rows[u"token"_s].edit->setEchoMode(QLineEdit::PasswordEchoOnEdit);
    m_rows[u"agent"_s].edit->setPlaceholderText(u"http://gpu-box.lan:18767"_s);
    m_rows[u"url"_s].edit->setPlaceholderText(u"http://gpu-box.lan:8080"_s);
    m_rows[u"models"_s].edit->setPlaceholderText(tr("empty: learnt from the engine (a router lists its own)"));
    m_rows[u"models"_s].edit->setToolTip(tr("Model keys, separated by commas: for a single-model server or one "
                                            "that does not list its models"));
    m_rows[u"argv"_s].edit->setPlaceholderText(u"llama-server --port 8080 --models-dir ~/models"_s);
    m_rows[u"argv"_s].edit->setToolTip(tr("The program and its arguments; quote an argument that has spaces"));
    m_rows[u"idle_stop_after_s"_s].edit->setPlaceholderText(tr("empty: never"));
    m_rows[EngineIdle].edit->setPlaceholderText(tr("empty: as the host"));
    m_rows[u"sleep_command"_s].edit->setPlaceholderText(u"ssh gpu-box sudo systemctl suspend"_s);
    m_rows[u"sleep_command"_s].edit->setToolTip(tr("Run once after an idle stop; the program and its arguments"));
    m_rows[u"scheduling.dwell_s"_s].edit->setPlaceholderText(tr("empty: 20"));
    m_rows[u"scheduling.max_wait_s"_s].edit->setPlaceholderText(tr("empty: 90"));
    m_rows[u"scheduling.side_call_max_wait_s"_s].edit->setPlaceholderText(tr("empty: 30"));
    m_rows[u"prompt_cache.dir"_s].edit->setPlaceholderText(tr("empty: the relay's own folder (driver local) or none"));
    m_rows[u"prompt_cache.max_size_mb"_s].edit->setPlaceholderText(tr("empty: 10240"));
    m_rows[u"prompt_cache.save_budget_s"_s].edit->setPlaceholderText(tr("empty: 10"));
    m_rows[u"start_timeout_s"_s].edit->setPlaceholderText(tr("empty: 120"));
    m_rows[u"stop_timeout_s"_s].edit->setPlaceholderText(tr("empty: 10"));
    m_rows[u"wake.mac"_s].edit->setPlaceholderText(u"aa:bb:cc:dd:ee:ff"_s);
    m_rows[u"wake.mac"_s].edit->setToolTip(tr("Empty: the box is not woken; the relay sends a magic packet to this "
                                               "MAC when a request finds the box asleep"));

    m_hint->setWordWrap(true);
    m_hint->setForegroundRole(QPalette::PlaceholderText);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(m_form);
    layout->addWidget(m_hint);
    layout->addStretch(1);
    showNothing();
}

void HostsEditorForm::addRow(const QString &key, const QString &label, bool engine, QComboBox *combo,
                             const QString &json)
{
    Row row;
    row.engine = engine;
    row.json = json.isEmpty() ? key : json;
    row.box = new QWidget(this);
    auto *column = new QVBoxLayout(row.box);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(2);
    row.combo = combo;
    row.edit = combo ? combo->lineEdit() : new QLineEdit(row.box);
    column->addWidget(combo ? static_cast<QWidget *>(combo) : row.edit);
    row.error = new QLabel(row.box);
    row.error->setWordWrap(true);
    row.error->setTextFormat(Qt::PlainText);
    row.error->setStyleSheet(u"color: #cc3d3d"_s);
    row.error->hide();
    column->addWidget(row.error);
    connect(row.edit, &QLineEdit::textChanged, this, [this, key] { fieldEdited(key); });
    row.label = new QLabel(label, this);
    row.label->setBuddy(row.edit);
    const int at = m_form->rowCount();
    m_form->addWidget(row.label, at, 0, Qt::AlignLeft | Qt::AlignTop);
    m_form->addWidget(row.box, at, 1);
    m_rows.insert(key, row);
    m_order.append(key);
}

void HostsEditorForm::showHost(HostsEditorModel *model, const QString &host)
{
    m_model = model;
    m_host = host;
    m_engine.clear();
    fill();
}

void HostsEditorForm::showEngine(HostsEditorModel *model, const QString &host, const QString &engine)
{
    m_model = model;
    m_host = host;
    m_engine = engine;
    fill();
}

void HostsEditorForm::showNothing()
{
    m_model = nullptr;
    m_host.clear();
    m_engine.clear();
    fill();
}

void HostsEditorForm::fill()
{
    m_filling = true;
    m_nameClash.clear();
    for (const QString &key : m_order) {
        const Row &row = m_rows[key];
        QString text;
        if (m_model && key == Name)
            text = m_engine.isEmpty() ? m_host : m_engine;
        else if (m_model && row.engine != !m_engine.isEmpty())
            text.clear();   // the other form's field
        else if (m_model && isCommandKey(row.json))
            text = joinArgv(m_model->list(m_host, m_engine, row.json));
        else if (m_model && HostsEditorModel::isListKey(row.json))
            text = m_model->list(m_host, m_engine, row.json).join(u", "_s);
        else if (m_model)
            text = m_model->text(m_host, m_engine, row.json);
        row.edit->setText(text);
        // A long command line shows its start (the program), not its last argument.
        row.edit->setCursorPosition(0);
        row.error->clear();
        row.error->hide();
    }
    m_filling = false;
    updateRows();
}

void HostsEditorForm::updateRows()
{
    const QString driver = m_model ? m_model->text(m_host, {}, u"driver"_s) : QString();
    const bool engine = !m_engine.isEmpty();
    // What each driver uses (docs/CONFIG.md); anything else only when it holds something.
    const bool switches = driver != u"static";   // starts and stops its engines
    const bool remote = driver != u"local";      // a box that can sleep and be woken
    const QHash<QString, bool> used = {
        {Name, true}, {u"driver"_s, true}, {u"api_key"_s, true},
        {u"agent"_s, driver == u"agent"}, {u"token"_s, driver == u"agent"},
        {u"scheduling.policy"_s, switches}, {u"scheduling.dwell_s"_s, switches},
        {u"scheduling.max_wait_s"_s, switches}, {u"scheduling.side_call_max_wait_s"_s, switches},
        {u"prompt_cache.dir"_s, switches}, {u"prompt_cache.max_size_mb"_s, switches},
        {u"prompt_cache.save_budget_s"_s, switches},
        {u"idle_stop_after_s"_s, switches}, {u"sleep_command"_s, switches}, {u"wake.mac"_s, remote},
        {u"wake.broadcast"_s, remote}, {u"wake.port"_s, remote}, {u"wake.timeout_s"_s, remote},
        {u"url"_s, true}, {u"models"_s, true},
        {u"argv"_s, driver == u"local" || driver == u"agent"},
        {u"start"_s, driver == u"command"}, {u"stop"_s, driver == u"command"},
        {u"start_timeout_s"_s, switches}, {u"stop_timeout_s"_s, switches}, {EngineIdle, switches},
    };
    for (const QString &key : m_order) {
        const Row &row = m_rows[key];
        const bool mine = key == Name || row.engine == engine;
        const bool shown = m_model && mine && (used.value(key) || !row.edit->text().isEmpty() || !row.error->isHidden());
        row.label->setVisible(shown);
        row.box->setVisible(shown);
    }
    if (!m_model)
        m_hint->setText(tr("Choose a host or an engine on the left, or add one."));
    else if (engine)
        m_hint->setText(tr("The first engine of a host is its default. A router lists its models itself; "
                           "list them here only for a server that does not."));
    else if (driver == u"static")
        m_hint->setText(tr("The relay only forwards to a static host: scheduling, prompt caches and idle stop "
                           "come with the drivers that start and stop engines. Empty fields take their defaults."));
    else
        m_hint->setText(tr("Empty fields take their defaults."));
}

QString HostsEditorForm::value(const QString &key) const
{
    return m_rows[key].edit->text();
}

QString HostsEditorForm::pathOf(const QString &key) const
{
    if (key == Name)
        return HostsEditorModel::fieldPath(m_host, m_engine);
    return HostsEditorModel::fieldPath(m_host, m_engine, m_rows[key].json);
}

void HostsEditorForm::fieldEdited(const QString &key)
{
    if (m_filling || !m_model)
        return;
    const QString text = value(key);
    const QString json = m_rows[key].json;
    if (key == Name) {
        const QString from = m_engine.isEmpty() ? m_host : m_engine;
        const bool ok = m_engine.isEmpty() ? m_model->renameHost(from, text) : m_model->renameEngine(m_host, from, text);
        if (!ok) {
            // The names identify what is edited: a taken one is refused here, before the readers.
            m_nameClash = m_engine.isEmpty() ? tr("another host is called \"%1\"").arg(text)
                                             : tr("another engine of this host is called \"%1\"").arg(text);
            emit edited();
            return;
        }
        m_nameClash.clear();
        (m_engine.isEmpty() ? m_host : m_engine) = text;
        emit renamed(from, text);
    } else if (isCommandKey(json)) {
        m_model->setList(m_host, m_engine, json, QProcess::splitCommand(text));
    } else if (HostsEditorModel::isListKey(json)) {
        QStringList items;
        for (const QString &item : text.split(u','))
            if (!item.trimmed().isEmpty())
                items.append(item.trimmed());
        m_model->setList(m_host, m_engine, json, items);
    } else {
        m_model->setText(m_host, m_engine, json, text.trimmed());
    }
    if (key == u"driver")
        updateRows();
    emit edited();
}

QList<ConfigError> HostsEditorForm::showErrors(const QList<ConfigError> &errors)
{
    QHash<QString, QStringList> at;
    QList<ConfigError> rest;
    for (const ConfigError &e : errors) {
        QString owner;
        if (m_model && e.fieldPath == pathOf(Name)) {
            owner = Name;
        } else if (m_model) {
            for (const QString &key : m_order) {
                if (key != Name && m_rows[key].engine == !m_engine.isEmpty() && isUnder(e.fieldPath, pathOf(key)))
                    owner = key;
            }
            // A section itself ("wake", "scheduling": not one of its fields): said at its first row.
            for (const QString &key : m_order) {
                const Row &row = m_rows[key];
                const qsizetype dot = row.json.indexOf(u'.');
                if (owner.isEmpty() && dot > 0 && row.engine == !m_engine.isEmpty()
                    && e.fieldPath == HostsEditorModel::fieldPath(m_host, m_engine, row.json.left(dot)))
                    owner = key;
            }
        }
        if (owner.isEmpty())
            rest.append(e);
        else
            at[owner].append(e.message);
    }
    for (const QString &key : m_order) {
        const Row &row = m_rows[key];
        QStringList messages = at.value(key);
        if (key == Name && !m_nameClash.isEmpty())
            messages.prepend(m_nameClash);
        row.error->setText(messages.join(u'\n'));
        row.error->setVisible(!messages.isEmpty());
    }
    updateRows();
    return rest;
}

bool HostsEditorForm::focusField(const QString &path)
{
    if (!m_model)
        return false;
    for (const QString &key : m_order) {
        const Row &row = m_rows[key];
        const bool mine = key == Name || row.engine == !m_engine.isEmpty();
        if (mine && !row.box->isHidden() && (key == Name ? path == pathOf(Name) : isUnder(path, pathOf(key)))) {
            field(key)->setFocus();
            return true;
        }
    }
    return false;
}

QWidget *HostsEditorForm::field(const QString &key) const
{
    const Row row = m_rows.value(key);
    return row.combo ? static_cast<QWidget *>(row.combo) : row.edit;
}

QLabel *HostsEditorForm::errorLabel(const QString &key) const
{
    return m_rows.value(key).error;
}

bool HostsEditorForm::isFieldShown(const QString &key) const
{
    return m_rows.contains(key) && !m_rows.value(key).box->isHidden();
}

QString HostsEditorForm::joinArgv(const QStringList &argv)
{
    QStringList out;
    for (QString arg : argv) {
        if (arg.isEmpty() || arg.contains(u' ') || arg.contains(u'"') || arg.contains(u'\t')) {
            arg.replace(u"\""_s, u"\"\"\""_s);
            arg = u'"' + arg + u'"';
        }
        out.append(arg);
    }
    return out.join(u' ');
}

} // namespace switchyard
