import { useTranslation } from 'react-i18next';
import { useNotify } from '../Notifier.tsx';
import type { TableState } from './state.ts';
import type { SavedView, useTableViews } from './useTableViews.ts';
import { ViewsMenu } from './ViewsMenu.tsx';

/** The views menu wired to the views hook and the URL (choose, save, save as new, reset, delete). */
export function ViewsMenuSlot({
  views,
  displayed,
  modified,
  isAdmin,
  tableState,
  onShowView,
  onSaved,
}: {
  views: ReturnType<typeof useTableViews>;
  displayed: SavedView | undefined;
  modified: boolean;
  isAdmin: boolean;
  tableState: TableState;
  onShowView: (id: number | null) => void;
  onSaved: (id: number) => void;
}) {
  const { t } = useTranslation();
  const notify = useNotify();
  return (
    <ViewsMenu
      views={views.views}
      current={displayed}
      modified={modified}
      isAdmin={isAdmin}
      busy={views.busy}
      onChoose={(item) => {
        onShowView(item.row.id);
        void views.choose(item.row.id).catch(() => undefined);
      }}
      onSaveCurrent={() => {
        if (!displayed) return;
        void views
          .saveInto(displayed, tableState)
          .then(() => {
            notify(t('views.saved'), 'success');
            onSaved(displayed.row.id);
          })
          .catch(() => undefined);
      }}
      onSaveNew={async (title, global) => {
        const id = await views.saveNew(title, global, tableState);
        notify(t('views.created'), 'success');
        onSaved(id);
      }}
      onReset={(item) => {
        void views
          .reset(item)
          .then(() => onShowView(item.row.id))
          .catch(() => undefined);
      }}
      onDelete={async (item) => {
        await views.remove(item);
        notify(t('views.deleted'), 'success');
        onShowView(null);
      }}
    />
  );
}
