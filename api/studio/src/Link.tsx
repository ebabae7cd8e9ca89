import type { AnchorHTMLAttributes, MouseEvent } from 'react';
import { hrefOf, navigate } from './router';

/** A link inside the Studio: a real href (new tab, copy link) that navigates without a reload. */
export function Link({ to, ...rest }: { to: string } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    rest.onClick?.(e);
    navigate(to);
  };
  return <a {...rest} href={hrefOf(to)} onClick={onClick} />;
}
