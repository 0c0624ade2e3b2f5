import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useDroppable,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import AddIcon from '@mui/icons-material/Add';
import ContentCopyOutlinedIcon from '@mui/icons-material/ContentCopyOutlined';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import DragIndicatorIcon from '@mui/icons-material/DragIndicator';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import {
  elementTypes,
  type FormElement,
  type FormRow,
  type FormStructure,
  inputElementTypes,
  isInput,
  parseRules,
  rowThemes,
  titledElementTypes,
} from '@protocol/contracts';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConditionalsEditor, ElementDialog } from './ElementDialog.tsx';
import {
  columnsOf,
  duplicateElement,
  duplicateRow,
  fieldNames,
  move,
  newElement,
  newRow,
  setGrid,
  withColumns,
} from './structure.ts';

type Place = { row: number; column: number; index: number };
const elementId = (p: Place) => `el:${p.row}:${p.column}:${p.index}`;
const parseId = (id: string): { kind: string; row: number; column: number; index: number } => {
  const [kind = '', row = '0', column = '0', index = '0'] = id.split(':');
  return { kind, row: Number(row), column: Number(column), index: Number(index) };
};

/**
 * The builder's canvas: rows (drag to reorder, grid 1–4, theme, title, conditionals, duplicate,
 * delete) with their columns of elements (drag within and across columns, settings, duplicate,
 * delete). dnd-kit, with the keyboard sensor: space to lift, arrows to move, space to drop.
 */
export function BuilderCanvas({
  structure,
  onChange,
  errorPaths,
}: {
  structure: FormStructure;
  onChange: (s: FormStructure) => void;
  /** `rows.R.elementsC.E` of the elements the last save found wrong (e.g. a name used twice). */
  errorPaths: Set<string>;
}) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<Place | null>(null);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const setRow = (index: number, row: FormRow) => onChange(structure.map((r, i) => (i === index ? row : r)));
  const setColumns = (index: number, columns: FormElement[][]) => {
    const row = structure[index];
    if (row) setRow(index, withColumns(row, columns));
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = parseId(String(active.id));
    const to = parseId(String(over.id));
    if (from.kind === 'row' && to.kind === 'row') {
      onChange(move(structure, from.row, to.row));
      return;
    }
    if (from.kind !== 'el') return;
    const next = structure.map((row) =>
      withColumns(
        row,
        columnsOf(row).map((c) => [...c]),
      ),
    );
    const source = columnsOf(next[from.row] as FormRow);
    const [element] = source[from.column]?.splice(from.index, 1) ?? [];
    if (!element) return;
    next[from.row] = withColumns(next[from.row] as FormRow, source);
    const targetRow = next[to.row];
    if (!targetRow || (to.kind !== 'el' && to.kind !== 'col')) return;
    const target = columnsOf(targetRow);
    const list = target[to.column] ?? [];
    const at = to.kind === 'col' ? list.length : to.index;
    list.splice(at, 0, element);
    target[to.column] = list;
    next[to.row] = withColumns(targetRow, target);
    onChange(next);
  };

  const editingElement = editing
    ? columnsOf(structure[editing.row] as FormRow)[editing.column]?.[editing.index]
    : undefined;
  return (
    <Stack spacing={2}>
      {structure.length === 0 && (
        <Paper
          variant="outlined"
          sx={{ p: 4, textAlign: 'center', color: 'text.secondary', borderStyle: 'dashed' }}
        >
          {t('onlineForms.builder.empty')}
        </Paper>
      )}
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
        <SortableContext items={structure.map((_, i) => `row:${i}`)} strategy={verticalListSortingStrategy}>
          {structure.map((row, r) => (
            <RowCard
              // biome-ignore lint/suspicious/noArrayIndexKey: a row's position is its identity in the builder
              key={r}
              index={r}
              row={row}
              structure={structure}
              onRow={(next) => setRow(r, next)}
              onDuplicate={() =>
                onChange([
                  ...structure.slice(0, r + 1),
                  duplicateRow(structure, row),
                  ...structure.slice(r + 1),
                ])
              }
              onDelete={() => onChange(structure.filter((_, i) => i !== r))}
            >
              <Box
                sx={{
                  display: 'grid',
                  gap: 1.5,
                  gridTemplateColumns: { xs: '1fr', md: `repeat(${row.grid}, minmax(0, 1fr))` },
                }}
              >
                {columnsOf(row).map((elements, c) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: columns are positional (elements1…N)
                  <Column key={c} id={`col:${r}:${c}`} label={t('onlineForms.builder.column', { n: c + 1 })}>
                    <SortableContext
                      items={elements.map((_, e) => elementId({ row: r, column: c, index: e }))}
                      strategy={verticalListSortingStrategy}
                    >
                      {elements.map((element, e) => (
                        <ElementCard
                          // biome-ignore lint/suspicious/noArrayIndexKey: elements are positional in their column
                          key={e}
                          id={elementId({ row: r, column: c, index: e })}
                          element={element}
                          invalid={errorPaths.has(`rows.${r}.elements${c + 1}.${e}`)}
                          onEdit={() => setEditing({ row: r, column: c, index: e })}
                          onDuplicate={() => {
                            const columns = columnsOf(row);
                            columns[c] = [
                              ...elements.slice(0, e + 1),
                              duplicateElement(structure, element),
                              ...elements.slice(e + 1),
                            ];
                            setColumns(r, columns);
                          }}
                          onDelete={() => {
                            const columns = columnsOf(row);
                            columns[c] = elements.filter((_, i) => i !== e);
                            setColumns(r, columns);
                          }}
                        />
                      ))}
                    </SortableContext>
                    <AddElement
                      titled={row.type === 'titledLayout'}
                      testId={`add-element-${r}-${c}`}
                      onAdd={(type) => {
                        const columns = columnsOf(row);
                        const element = newElement(structure, type, t(`onlineForms.elementType.${type}`));
                        columns[c] = [...elements, element];
                        setColumns(r, columns);
                        setEditing({ row: r, column: c, index: elements.length });
                      }}
                    />
                  </Column>
                ))}
              </Box>
            </RowCard>
          ))}
        </SortableContext>
      </DndContext>
      <Stack direction="row" spacing={1}>
        <Button
          variant="outlined"
          startIcon={<AddIcon />}
          onClick={() => onChange([...structure, newRow()])}
          data-testid="builder-add-row"
        >
          {t('onlineForms.builder.addRow')}
        </Button>
        <Button
          color="inherit"
          startIcon={<AddIcon />}
          onClick={() => onChange([...structure, newRow('titledLayout')])}
        >
          {t('onlineForms.builder.addTitledRow')}
        </Button>
      </Stack>
      {editing && editingElement && (
        <ElementDialog
          element={editingElement}
          fields={fieldNames(structure)}
          onClose={() => setEditing(null)}
          onSave={(element) => {
            const row = structure[editing.row] as FormRow;
            const columns = columnsOf(row);
            columns[editing.column] = (columns[editing.column] ?? []).map((el, i) =>
              i === editing.index ? element : el,
            );
            setColumns(editing.row, columns);
            setEditing(null);
          }}
        />
      )}
    </Stack>
  );
}

function RowCard(props: {
  index: number;
  row: FormRow;
  structure: FormStructure;
  onRow: (row: FormRow) => void;
  onDuplicate: () => void;
  onDelete: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { row } = props;
  const sortable = useSortable({ id: `row:${props.index}` });
  const [conditionsOpen, setConditionsOpen] = useState(row.conditionals.length > 0);
  return (
    <Paper
      ref={sortable.setNodeRef}
      variant="outlined"
      data-testid={`builder-row-${props.index}`}
      sx={{
        p: 1.5,
        transform: CSS.Transform.toString(sortable.transform),
        transition: sortable.transition,
        opacity: sortable.isDragging ? 0.6 : 1,
      }}
    >
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={1}
        sx={{ alignItems: { md: 'center' }, mb: 1.5 }}
      >
        <Tooltip title={t('onlineForms.builder.drag')}>
          <IconButton
            size="small"
            aria-label={t('onlineForms.builder.drag')}
            {...sortable.attributes}
            {...sortable.listeners}
            sx={{ cursor: 'grab' }}
          >
            <DragIndicatorIcon />
          </IconButton>
        </Tooltip>
        <TextField
          size="small"
          label={t('onlineForms.builder.rowName')}
          value={row.name}
          onChange={(event) => props.onRow({ ...row, name: event.target.value })}
          sx={{ flexGrow: 1 }}
          slotProps={{ htmlInput: { 'data-testid': `row-name-${props.index}` } }}
        />
        <TextField
          select
          size="small"
          label={t('onlineForms.builder.grid')}
          value={row.grid}
          onChange={(event) => props.onRow(setGrid(row, Number(event.target.value)))}
          sx={{ minWidth: 100 }}
          slotProps={{ htmlInput: { 'data-testid': `row-grid-${props.index}` } }}
        >
          {[1, 2, 3, 4].map((n) => (
            <MenuItem key={n} value={n}>
              {n}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={t('onlineForms.builder.theme')}
          value={row.theme}
          onChange={(event) => props.onRow({ ...row, theme: event.target.value as FormRow['theme'] })}
          sx={{ minWidth: 130 }}
        >
          {rowThemes.map((theme) => (
            <MenuItem key={theme} value={theme}>
              {t(`onlineForms.theme.${theme}`)}
            </MenuItem>
          ))}
        </TextField>
        <FormControlLabel
          sx={{ whiteSpace: 'nowrap' }}
          control={
            <Checkbox
              checked={row.showTitle}
              onChange={(event) => props.onRow({ ...row, showTitle: event.target.checked })}
            />
          }
          label={t('onlineForms.builder.showTitle')}
        />
        <Box sx={{ flexShrink: 0 }}>
          <Button size="small" color="inherit" onClick={() => setConditionsOpen((v) => !v)}>
            {t('onlineForms.builder.rowConditionals')} ({row.conditionals.length})
          </Button>
          <Tooltip title={t('onlineForms.builder.duplicate')}>
            <IconButton aria-label={t('onlineForms.builder.duplicate')} onClick={props.onDuplicate}>
              <ContentCopyOutlinedIcon fontSize="small" />
            </IconButton>
          </Tooltip>
          <Tooltip title={t('onlineForms.builder.delete')}>
            <IconButton
              aria-label={t('onlineForms.builder.delete')}
              onClick={props.onDelete}
              data-testid={`row-delete-${props.index}`}
            >
              <DeleteOutlineIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        </Box>
      </Stack>
      {conditionsOpen && (
        <Box sx={{ mb: 1.5, pl: 5 }}>
          <ConditionalsEditor
            conditionals={row.conditionals}
            fields={fieldNames(props.structure).filter(
              (f) =>
                !columnsOf(row)
                  .flat()
                  .some((e) => e.options.field === f),
            )}
            onChange={(conditionals) => props.onRow({ ...row, conditionals })}
          />
        </Box>
      )}
      {props.children}
    </Paper>
  );
}

function Column({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  const droppable = useDroppable({ id });
  return (
    <Box
      ref={droppable.setNodeRef}
      aria-label={label}
      role="group"
      sx={{
        border: 1,
        borderStyle: 'dashed',
        borderColor: droppable.isOver ? 'primary.main' : 'divider',
        borderRadius: 1,
        p: 1,
        minHeight: 72,
        display: 'flex',
        flexDirection: 'column',
        gap: 1,
      }}
    >
      {children}
    </Box>
  );
}

function ElementCard(props: {
  id: string;
  element: FormElement;
  invalid: boolean;
  onEdit: () => void;
  onDuplicate: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const { element } = props;
  const sortable = useSortable({ id: props.id });
  const required = isInput(element) && safeRequired(element.validation);
  const title = isInput(element) ? element.options.label || element.options.field : element.options.text;
  return (
    <Paper
      ref={sortable.setNodeRef}
      variant="outlined"
      data-testid={`builder-element-${element.options.field ?? props.id}`}
      sx={{
        px: 1,
        py: 0.5,
        display: 'flex',
        alignItems: 'center',
        gap: 0.5,
        transform: CSS.Transform.toString(sortable.transform),
        transition: sortable.transition,
        opacity: sortable.isDragging ? 0.6 : 1,
        bgcolor: 'background.paper',
        borderColor: props.invalid ? 'error.main' : undefined,
      }}
    >
      <IconButton
        size="small"
        aria-label={t('onlineForms.builder.drag')}
        {...sortable.attributes}
        {...sortable.listeners}
        sx={{ cursor: 'grab' }}
      >
        <DragIndicatorIcon fontSize="small" />
      </IconButton>
      <Box sx={{ flexGrow: 1, minWidth: 0 }}>
        <Typography variant="body2" noWrap>
          {title}
          {required ? ' *' : ''}
        </Typography>
        <Stack direction="row" spacing={0.5} sx={{ mt: 0.25 }}>
          <Chip size="small" label={t(`onlineForms.elementType.${element.type}`)} />
          {element.options.field && (
            <Chip
              size="small"
              variant="outlined"
              label={element.options.field}
              sx={{ fontFamily: 'monospace' }}
            />
          )}
          {element.conditionals.length > 0 && (
            <Chip size="small" variant="outlined" label={t('onlineForms.builder.conditional')} />
          )}
        </Stack>
      </Box>
      <IconButton
        size="small"
        aria-label={t('onlineForms.builder.settings')}
        onClick={props.onEdit}
        data-testid={`element-edit-${element.options.field ?? props.id}`}
      >
        <EditOutlinedIcon fontSize="small" />
      </IconButton>
      <IconButton size="small" aria-label={t('onlineForms.builder.duplicate')} onClick={props.onDuplicate}>
        <ContentCopyOutlinedIcon fontSize="small" />
      </IconButton>
      <IconButton size="small" aria-label={t('onlineForms.builder.delete')} onClick={props.onDelete}>
        <DeleteOutlineIcon fontSize="small" />
      </IconButton>
    </Paper>
  );
}

function AddElement({
  titled,
  onAdd,
  testId,
}: {
  titled: boolean;
  onAdd: (type: FormElement['type']) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const types = titled ? titledElementTypes : [...inputElementTypes, ...titledElementTypes];
  return (
    <>
      <Button
        size="small"
        startIcon={<AddIcon />}
        onClick={(event) => setAnchor(event.currentTarget)}
        data-testid={testId}
      >
        {t('onlineForms.builder.addElement')}
      </Button>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {types
          .filter((type) => (elementTypes as readonly string[]).includes(type))
          .map((type) => (
            <MenuItem
              key={type}
              data-testid={`add-${type}`}
              onClick={() => {
                setAnchor(null);
                onAdd(type);
              }}
            >
              {t(`onlineForms.elementType.${type}`)}
            </MenuItem>
          ))}
      </Menu>
    </>
  );
}

function safeRequired(rule: string): boolean {
  try {
    return parseRules(rule).required;
  } catch {
    return false;
  }
}
