{{/* Names: the release name, or release-chart when they differ, cut to the 63-character DNS limit. */}}
{{- define "sluice.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "sluice.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "sluice.labels" -}}
{{ include "sluice.selectorLabels" . }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{- define "sluice.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{- define "sluice.secretName" -}}
{{- .Values.secrets.existingSecret | default (include "sluice.fullname" .) -}}
{{- end -}}

{{- define "sluice.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- .Values.serviceAccount.name | default (include "sluice.fullname" .) -}}
{{- else -}}
{{- .Values.serviceAccount.name | default "default" -}}
{{- end -}}
{{- end -}}

{{/* The settings every sluice process reads: the ConfigMap, the Secret and the TLS files. */}}
{{- define "sluice.envFrom" -}}
- configMapRef:
    name: {{ include "sluice.fullname" . }}
- secretRef:
    name: {{ include "sluice.secretName" . }}
{{- end -}}

{{/* Scratch space and TLS files; the root filesystem stays read-only. */}}
{{- define "sluice.volumes" -}}
- name: scratch
  emptyDir:
    sizeLimit: {{ .Values.scratch.sizeLimit }}
# /tmp too: libraries that write temp files do not read SLUICE_TMP_DIR.
- name: tmp
  emptyDir:
    sizeLimit: 1Gi
{{- if .Values.tls.existingSecret }}
- name: tls
  secret:
    secretName: {{ .Values.tls.existingSecret }}
{{- end }}
{{- end -}}

{{- define "sluice.volumeMounts" -}}
- name: scratch
  mountPath: /data
- name: tmp
  mountPath: /tmp
{{- if .Values.tls.existingSecret }}
- name: tls
  mountPath: /etc/sluice/tls
  readOnly: true
{{- end }}
{{- end -}}

{{- define "sluice.podSpecCommon" -}}
serviceAccountName: {{ include "sluice.serviceAccountName" . }}
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
securityContext:
  {{- toYaml .Values.podSecurityContext | nindent 2 }}
{{- with .Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}
