import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { call, get, m } from '../../api';
import type { Locale, Model } from '../../types';
import { Outcome, useAction } from '../admin-kit';
import { useRoles, type RoleRulesView, type RoleView } from './roles-query';
import { EMPTY_RULES, RuleGrid } from './RuleGrid';

/** The roles: the built-in ones and the organization's own, each as its grid; and a new custom role. */
export default function Roles() {
  const qc = useQueryClient();
  const roles = useRoles();
  const models = useQuery({ queryKey: ['models'], queryFn: () => get<Model[]>(m('/models')), staleTime: 60_000 });
  const locales = useQuery({ queryKey: ['locales'], queryFn: () => get<Locale[]>(m('/locales')), staleTime: 60_000 });
  const [shown, setShown] = useState('author');
  const [name, setName] = useState('');
  const [rules, setRules] = useState<RoleRulesView>(EMPTY_RULES);
  const create = useAction();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void create.run(async () => {
      const made = await call<RoleView>('POST', m('/roles'), { name, rules });
      await qc.invalidateQueries({ queryKey: ['roles'] });
      setShown(made.result.id);
      setName('');
      setRules(EMPTY_RULES);
      return `Role ${made.result.name} created.`;
    });
  };

  const role = roles.data?.find((r) => r.id === shown) ?? roles.data?.[0];
  const grid = (r: RoleRulesView, onChange?: (r: RoleRulesView) => void) => <RuleGrid rules={r} models={models.data ?? []} locales={locales.data ?? []} onChange={onChange} />;
  return (
    <>
      <h1>Roles</h1>
      {roles.isError && <p role="alert">{roles.error.message}</p>}
      <section aria-labelledby="role-heading">
        <h2 id="role-heading">What a role may do</h2>
        <label>
          Show role
          <select value={role?.id ?? ''} onChange={(e) => setShown(e.target.value)}>
            {(roles.data ?? []).map((r) => (
              <option key={r.id} value={r.id}>
                {r.name}
                {r.builtIn ? ' (built-in)' : ''}
              </option>
            ))}
          </select>
        </label>
        {role && grid(role.rules)}
      </section>
      <section aria-labelledby="new-role-heading">
        <h2 id="new-role-heading">New custom role</h2>
        <form noValidate onSubmit={submit}>
          <label>
            Role name
            <input value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" />
          </label>
          {grid(rules, setRules)}
          <div className="actions">
            <button type="submit" className="primary" disabled={create.busy}>
              Create role
            </button>
          </div>
          <Outcome action={create} />
        </form>
      </section>
    </>
  );
}
