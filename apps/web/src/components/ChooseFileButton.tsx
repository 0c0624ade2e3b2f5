import UploadFileOutlinedIcon from '@mui/icons-material/UploadFileOutlined';
import Button from '@mui/material/Button';

interface Props {
  /** The file chosen so far: its name stands on the button, else `prompt`. */
  file: File | null;
  prompt: string;
  /** The file types the browser's picker offers (`.csv,.txt`). */
  accept: string;
  onChoose: (file: File | null) => void;
  testId: string;
}

/** The button that picks the one file of an upload and then shows its name. */
export function ChooseFileButton({ file, prompt, accept, onChoose, testId }: Props) {
  return (
    <Button
      component="label"
      variant="outlined"
      startIcon={<UploadFileOutlinedIcon />}
      sx={{ textTransform: 'none' }}
    >
      {file ? file.name : prompt}
      <input
        type="file"
        hidden
        accept={accept}
        data-testid={testId}
        onChange={(e) => onChoose(e.target.files?.[0] ?? null)}
      />
    </Button>
  );
}
