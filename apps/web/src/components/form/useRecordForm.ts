import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { type DefaultValues, type FieldValues, type KeepStateOptions, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLocalize } from '../../lib/language.tsx';
import { useNotify } from '../Notifier.tsx';
import { bodyResolver, type FormContract, formError } from './resolver.ts';
import { type KeyField, showSaveError } from './saveError.ts';

export interface RecordFormOptions<V extends FieldValues, R, B> {
  /** The record being edited; undefined on a create page. */
  record: R | undefined;
  /** The form's values of the record, or of a new one; memoised: a new object resets the form. */
  initial: V;
  /** Keep what was typed when `initial` changes underneath (e.g. a record refreshed by another action). */
  resetOptions?: KeepStateOptions;
  contract: FormContract<V, B>;
  create?: (body: B) => Promise<R>;
  update: (record: R, body: B) => Promise<R>;
  /** The record's query: a saved record is put there. */
  queryKey: (saved: R) => QueryKey;
  /** Queries a save makes stale (lists), refetched when next shown. */
  invalidate?: QueryKey[];
  /** The success snackbar. */
  savedMessage: (saved: R, creating: boolean) => string;
  /** The edit route of a created record: the create page is replaced by it. */
  editPath?: (saved: R) => string;
  /** The router state handed to that route. */
  editState?: (saved: R) => unknown;
  /** What else the page does with a saved record, after the above. */
  onSaved?: (saved: R, creating: boolean) => void;
  /** Asked after the checks and before saving; false cancels (e.g. a confirmation). */
  confirm?: (values: V) => Promise<boolean>;
  /** Server error keys that name one field without a field error (e.g. a user name taken). */
  keyFields?: Record<string, KeyField>;
}

/**
 * The skeleton of an edit page's form: react-hook-form checked with the contract's save schema on
 * the body it sends, create or update, the server's refusals under their fields, the snackbars, the
 * cache, and the move to the edit route after the first save.
 */
export function useRecordForm<V extends FieldValues, R, B>(options: RecordFormOptions<V, R, B>) {
  const { t } = useTranslation();
  const notify = useNotify();
  const navigate = useNavigate();
  const localize = useLocalize();
  const queryClient = useQueryClient();
  // The page rebuilds its options on every render; the resolver and the save read the latest.
  const latest = useRef(options);
  latest.current = options;
  const resolver = useRef(bodyResolver(() => latest.current.contract)).current;
  const { record, initial, resetOptions } = options;
  const creating = record === undefined;
  const form = useForm<V>({ resolver, defaultValues: initial as DefaultValues<V> });
  // biome-ignore lint/correctness/useExhaustiveDependencies: the reset options are fixed per page
  useEffect(() => form.reset(initial, resetOptions), [initial, form]);

  const save = useMutation({
    mutationFn: (values: V) => {
      const { contract, create, update } = latest.current;
      const body = contract.toBody(values);
      if (record !== undefined) return update(record, body);
      if (!create) throw new Error('This form only updates');
      return create(body);
    },
    meta: { errorSnackbar: false },
    onSuccess: (saved) => {
      const current = latest.current;
      queryClient.setQueryData(current.queryKey(saved), saved);
      for (const queryKey of current.invalidate ?? []) {
        void queryClient.invalidateQueries({ queryKey, exact: false, refetchType: 'none' });
      }
      notify(current.savedMessage(saved, creating), 'success');
      if (creating && current.editPath) {
        navigate(localize(current.editPath(saved)), { replace: true, state: current.editState?.(saved) });
      }
      current.onSaved?.(saved, creating);
    },
    onError: (failure) =>
      showSaveError(failure, {
        form,
        t,
        notify,
        toForm: (error) => formError(latest.current.contract, error),
        keyFields: latest.current.keyFields,
      }),
  });

  const submit = form.handleSubmit(
    async (values) => {
      if (latest.current.confirm && !(await latest.current.confirm(values))) return;
      save.mutate(values);
    },
    () => notify(t('validation.fix_errors'), 'error'),
  );

  return {
    form,
    control: form.control,
    creating,
    dirty: form.formState.isDirty,
    saving: save.isPending,
    submit,
    /** Back to the record's values (undo). */
    reset: () => form.reset(initial),
  };
}

export type RecordForm = Pick<ReturnType<typeof useRecordForm>, 'creating' | 'dirty' | 'saving' | 'reset'>;
