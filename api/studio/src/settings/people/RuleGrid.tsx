import type { Locale, Model } from '../../types';
import { Table } from '../admin-kit';
import type { RoleRulesView } from './roles-query';

// A role's rules as grids: actions per model, what each field of a model is (visible, read-only,
// hidden), the locales it may write, assets and settings areas. Read-only for a stored role (the
// API changes no role once made); editable for a new one.

const ACTIONS = ['read', 'create', 'update', 'publish', 'delete'] as const;
const AREAS = ['models', 'tokens', 'webhooks', 'members', 'analytics', 'sso'] as const;
type ModelRule = RoleRulesView['models'][string];
const NONE: ModelRule = { read: false, create: false, update: false, publish: false, delete: false, ownEntriesOnly: false, hiddenFields: [], readOnlyFields: [] };

export const EMPTY_RULES: RoleRulesView = { models: {}, locales: null, assets: { upload: false, edit: false, delete: false }, settings: [] };

interface Props {
  rules: RoleRulesView;
  models: Model[];
  locales: Locale[];
  /** Absent: the grid only shows the rules. */
  onChange?: (rules: RoleRulesView) => void;
}

export function RuleGrid({ rules, models, locales, onChange }: Props) {
  const readOnly = !onChange;
  const rows = ['*', ...models.map((md) => md.alias)];
  const ruleOf = (alias: string): ModelRule => rules.models[alias] ?? (alias === '*' ? NONE : (rules.models['*'] ?? NONE));
  const setModel = (alias: string, patch: Partial<ModelRule>) => onChange?.({ ...rules, models: { ...rules.models, [alias]: { ...ruleOf(alias), ...patch } } });
  const modelName = (alias: string) => (alias === '*' ? 'Every other model' : (models.find((md) => md.alias === alias)?.name ?? alias));

  const fieldState = (alias: string, field: string) => (ruleOf(alias).hiddenFields.includes(field) ? 'hidden' : ruleOf(alias).readOnlyFields.includes(field) ? 'read-only' : 'visible');
  const setField = (alias: string, field: string, state: string) => {
    const r = ruleOf(alias);
    const hidden = r.hiddenFields.filter((f) => f !== field);
    const readOnlyFields = r.readOnlyFields.filter((f) => f !== field);
    if (state === 'hidden') hidden.push(field);
    if (state === 'read-only') readOnlyFields.push(field);
    setModel(alias, { hiddenFields: hidden, readOnlyFields });
  };
  const fielded = models.filter((md) => md.fields.length > 0 && (rules.models[md.alias] || !readOnly));

  return (
    <>
      <h3>Models</h3>
      <Table caption="Permissions per model" grid>
        <thead>
          <tr>
            <th scope="col">Model</th>
            {ACTIONS.map((a) => (
              <th key={a} scope="col">
                {a}
              </th>
            ))}
            <th scope="col">own entries only</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((alias) => (
            <tr key={alias}>
              <th scope="row">{modelName(alias)}</th>
              {[...ACTIONS, 'ownEntriesOnly' as const].map((a) => (
                <td key={a}>
                  <input
                    type="checkbox"
                    aria-label={`${a === 'ownEntriesOnly' ? 'own entries only' : a} — ${modelName(alias)}`}
                    checked={ruleOf(alias)[a]}
                    disabled={readOnly}
                    onChange={(e) => setModel(alias, { [a]: e.target.checked })}
                  />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </Table>
      {fielded.length > 0 && <h3>Fields</h3>}
      {fielded.map((md) => (
        <Table key={md.alias} caption={`Fields of ${md.name ?? md.alias}`}>
          <thead>
            <tr>
              <th scope="col">{md.name ?? md.alias}: field</th>
              <th scope="col">Access</th>
            </tr>
          </thead>
          <tbody>
            {md.fields.map((f) => (
              <tr key={f.alias}>
                <th scope="row">{f.name ?? f.alias}</th>
                <td>
                  <select aria-label={`Access to ${md.alias}.${f.alias}`} value={fieldState(md.alias, f.alias)} disabled={readOnly} onChange={(e) => setField(md.alias, f.alias, e.target.value)}>
                    <option value="visible">visible</option>
                    <option value="read-only">read-only</option>
                    <option value="hidden">hidden</option>
                  </select>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      ))}
      <h3>Locales</h3>
      <fieldset>
        <legend>Locales this role may write</legend>
        <label>
          <input type="checkbox" checked={rules.locales === null} disabled={readOnly} onChange={(e) => onChange?.({ ...rules, locales: e.target.checked ? null : [] })} /> Every locale
        </label>
        {locales.map((l) => (
          <label key={l.code}>
            <input
              type="checkbox"
              checked={rules.locales === null || rules.locales.includes(l.code)}
              disabled={readOnly || rules.locales === null}
              onChange={(e) => onChange?.({ ...rules, locales: e.target.checked ? [...(rules.locales ?? []), l.code] : (rules.locales ?? []).filter((c) => c !== l.code) })}
            />{' '}
            {l.name ?? l.code} ({l.code})
          </label>
        ))}
      </fieldset>
      <h3>Assets and settings</h3>
      <fieldset>
        <legend>Assets</legend>
        {(['upload', 'edit', 'delete'] as const).map((a) => (
          <label key={a}>
            <input type="checkbox" checked={rules.assets[a]} disabled={readOnly} onChange={(e) => onChange?.({ ...rules, assets: { ...rules.assets, [a]: e.target.checked } })} /> {a} assets
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Settings areas</legend>
        {AREAS.map((a) => (
          <label key={a}>
            <input
              type="checkbox"
              checked={rules.settings.includes(a)}
              disabled={readOnly}
              onChange={(e) => onChange?.({ ...rules, settings: e.target.checked ? [...rules.settings, a] : rules.settings.filter((s) => s !== a) })}
            />{' '}
            {a}
          </label>
        ))}
      </fieldset>
    </>
  );
}
