import { useRoles } from './roles-query';

/** A choice among the organization's roles (built-in and custom), by id; `value` is kept even when it is no longer a role. */
export function RoleSelect({ value, onChange, label, disabled }: { value: string; onChange: (role: string) => void; label?: string; disabled?: boolean }) {
  const roles = useRoles().data ?? [];
  return (
    <select aria-label={label} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)}>
      {!roles.some((r) => r.id === value) && <option value={value}>{value}</option>}
      {roles.map((r) => (
        <option key={r.id} value={r.id}>
          {r.name}
        </option>
      ))}
    </select>
  );
}
