import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { onTabKey } from './tabs.ts';

/** One locale's tab: its ids tie it to the panel it controls; each screen names them so its own panels and tests keep theirs. */
export interface LocaleTab {
  locale: string;
  id: string;
  controls: string;
  testId: string;
  class: string;
  label: ComponentChildren;
}

/**
 * The tab list of a content's locales (WAI-ARIA tabs): the selected tab alone
 * is in the tab order, the arrow keys, Home and End move between them.
 * Shared by the composer's text and the template editor.
 */
export function LocaleTabList({ tabs, selected, onSelect }: { tabs: readonly LocaleTab[]; selected: string; onSelect: (locale: string) => void }) {
  return (
    <div
      role="tablist"
      aria-label="Locales"
      class="tabs"
      onKeyDown={(event) =>
        onTabKey(
          event,
          tabs.map((tab) => tab.locale),
          selected,
          onSelect,
        )
      }
    >
      {tabs.map((tab) => (
        <button
          key={tab.locale}
          type="button"
          role="tab"
          id={tab.id}
          aria-selected={tab.locale === selected ? 'true' : 'false'}
          aria-controls={tab.controls}
          tabIndex={tab.locale === selected ? 0 : -1}
          class={tab.class}
          data-testid={tab.testId}
          onClick={() => onSelect(tab.locale)}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}

/**
 * "Add a locale": a tag typed, added by Enter or the button. `onAdd` gets the
 * tag as typed and says whether it took it; only then is the input emptied,
 * so a refused tag stays there to be corrected. `errorsId` names the
 * messages that say why (rendered by the caller as `children`).
 */
export function AddLocaleField({
  id,
  fieldClass,
  placeholder,
  errorsId,
  onAdd,
  children,
}: {
  id: string;
  fieldClass: string;
  placeholder: string;
  errorsId?: string | undefined;
  onAdd: (tag: string) => boolean;
  children?: ComponentChildren;
}) {
  const [tag, setTag] = useState('');
  const add = () => {
    if (onAdd(tag)) setTag('');
  };
  return (
    <div class={fieldClass}>
      <label for={id}>Add a locale</label>
      <div class="inline">
        <input
          id={id}
          type="text"
          value={tag}
          placeholder={placeholder}
          aria-invalid={errorsId === undefined ? undefined : 'true'}
          aria-describedby={errorsId}
          onInput={(event) => setTag(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              add();
            }
          }}
        />
        <button type="button" class="secondary" onClick={add}>
          Add locale
        </button>
      </div>
      {children}
    </div>
  );
}
