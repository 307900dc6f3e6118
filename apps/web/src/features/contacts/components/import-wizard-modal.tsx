import { useState } from 'react';
import { Box, Modal, Stepper } from '@mantine/core';
import type { ImportUploadDto } from '@wren/contracts';
import { useT } from '@/lib/i18n';
import { ImportMappingStep } from './import-mapping-step';
import { ImportProgressStep } from './import-progress-step';
import { ImportUploadStep } from './import-upload-step';

interface ImportWizardProps {
  groupId: string;
  onClose: () => void;
}

function ImportWizard({ groupId, onClose }: ImportWizardProps) {
  const t = useT();
  const [step, setStep] = useState(0);
  const [upload, setUpload] = useState<ImportUploadDto | null>(null);
  const [importId, setImportId] = useState<string | null>(null);
  const [finished, setFinished] = useState(false);

  return (
    <>
      <Stepper
        active={finished ? 3 : step}
        size="sm"
        allowNextStepsSelect={false}
        styles={{ content: { paddingTop: 24 } }}
      >
        <Stepper.Step label={t('Upload')} description={t('CSV, TXT or XLSX')}>
          <ImportUploadStep
            groupId={groupId}
            onUploaded={(uploaded) => {
              setUpload(uploaded);
              setStep(1);
            }}
          />
        </Stepper.Step>
        <Stepper.Step label={t('Match columns')} description={t('Phone, name and fields')}>
          {upload && (
            <ImportMappingStep
              groupId={groupId}
              upload={upload}
              onBack={() => {
                setUpload(null);
                setStep(0);
              }}
              onStarted={(started) => {
                setImportId(started.id);
                setStep(2);
              }}
            />
          )}
        </Stepper.Step>
        <Stepper.Step label={t('Import')} description={t('Add to the group')} />
      </Stepper>
      {/* Outside the stepper, so the step can show as done without remounting the progress. */}
      {step === 2 && importId && (
        <Box pt="lg">
          <ImportProgressStep
            groupId={groupId}
            importId={importId}
            onFinished={() => setFinished(true)}
            onDone={onClose}
          />
        </Box>
      )}
    </>
  );
}

interface ImportWizardModalProps {
  opened: boolean;
  groupId: string;
  groupName: string;
  onClose: () => void;
}

/** Upload → column mapping → import progress, as a three-step wizard. */
export function ImportWizardModal({ opened, groupId, groupName, onClose }: ImportWizardModalProps) {
  const t = useT();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('Import contacts into {{name}}', { name: groupName })}
      size="xl"
      closeOnClickOutside={false}
      centered
    >
      <ImportWizard groupId={groupId} onClose={onClose} />
    </Modal>
  );
}
